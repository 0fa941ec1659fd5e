/** `proxy-migrate bot`: the Slack bot and a worker in one process. */
import { checkOf, flagsOnly, withExamples } from './args.js';
import { serveUntilSignal } from './serve.js';
import type { CliIo, Subcommand } from './types.js';

const body = `Usage: proxy-migrate bot

Runs the Slack bot (Bolt) and a job worker in one process.

HTTP mode (default): Slack posts to http://<host>:$PORT/slack/events, signed with
SLACK_SIGNING_SECRET. Socket Mode: set SLACK_APP_TOKEN (xapp-…); no public URL needed.
The same port serves /healthz, /readyz and /metrics.

Environment: SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN, SLACK_APP_ID, SLACK_API_URL,
REDIS_URL, PORT (3000), CLUSTERS_FILE (clusters.yaml), LOG_LEVEL (info), QUEUE_PREFIX,
WORKER_CONCURRENCY, SHUTDOWN_GRACE_SECONDS (25). See the README's "Configuration" and
"HTTP edge".

Stops gracefully on SIGTERM or SIGINT.`;

const examples = ['proxy-migrate bot'];

const help = withExamples(body, examples);

const options = {} as const;

const parse = (argv: string[], io: CliIo) => flagsOnly(argv, options, help, io);

export const botCommand: Subcommand = {
  name: 'bot',
  summary: 'run the Slack bot and a worker (HTTP on $PORT, or Socket Mode)',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    // Loaded on demand so `--help` and other subcommands stay fast.
    const { startBot } = await import('./runtime.js');
    return serveUntilSignal('bot', io, (config, logger) => startBot(config, logger));
  },
};

/** `proxy-migrate bot`: the Slack bot and a worker in one process. */
import { parseOrExit } from './args.js';
import { serveUntilSignal } from './serve.js';
import type { Subcommand } from './types.js';

const help = `Usage: proxy-migrate bot

Runs the Slack bot (Bolt) and a job worker in one process.

HTTP mode (default): Slack posts to http://<host>:$PORT/slack/events, signed with
SLACK_SIGNING_SECRET. Socket Mode: set SLACK_APP_TOKEN (xapp-…); no public URL needed.
The same port serves /healthz, /readyz and /metrics.

Environment: SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_APP_TOKEN, SLACK_APP_ID, SLACK_API_URL,
REDIS_URL, PORT (3000), CLUSTERS_FILE (clusters.yaml), LOG_LEVEL (info), QUEUE_PREFIX,
WORKER_CONCURRENCY, SHUTDOWN_GRACE_SECONDS (25). See the README's "Configuration" and
"HTTP edge".

Stops gracefully on SIGTERM or SIGINT.`;

export const botCommand: Subcommand = {
  name: 'bot',
  summary: 'run the Slack bot and a worker (HTTP on $PORT, or Socket Mode)',
  help,
  run: async (argv, io) => {
    const parsed = parseOrExit(argv, {}, help, io);
    if (!parsed.ok) return parsed.code;
    // Loaded on demand so `--help` and other subcommands stay fast.
    const { startBot } = await import('./runtime.js');
    return serveUntilSignal('bot', io, (config, logger) => startBot(config, logger));
  },
};

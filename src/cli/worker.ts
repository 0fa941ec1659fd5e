/** `proxy-migrate worker`: job workers only, to scale out beside the bot. */
import { checkOf, flagsOnly, withExamples } from './args.js';
import { serveUntilSignal } from './serve.js';
import type { CliIo, Subcommand } from './types.js';

const body = `Usage: proxy-migrate worker

Runs job workers only (no Slack endpoint). Workers are stateless: run as many replicas as
you like against the same REDIS_URL and QUEUE_PREFIX. They post to Slack with SLACK_BOT_TOKEN.
/healthz, /readyz and /metrics are served on $PORT.

Environment: SLACK_BOT_TOKEN, SLACK_API_URL, REDIS_URL, PORT, CLUSTERS_FILE, LOG_LEVEL,
QUEUE_PREFIX, WORKER_CONCURRENCY, SHUTDOWN_GRACE_SECONDS.

Stops gracefully on SIGTERM or SIGINT: active jobs get SHUTDOWN_GRACE_SECONDS to finish.`;

const examples = ['proxy-migrate worker'];

const help = withExamples(body, examples);

const options = {} as const;

const parse = (argv: string[], io: CliIo) => flagsOnly(argv, options, help, io);

export const workerCommand: Subcommand = {
  name: 'worker',
  summary: 'run job workers only',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    // Loaded on demand so `--help` and other subcommands stay fast.
    const { startWorker } = await import('./runtime.js');
    return serveUntilSignal('worker', io, (config, logger) => startWorker(config, logger));
  },
};

/** `proxy-migrate worker`: job workers only, to scale out beside the bot. */
import { parseOrExit } from './args.js';
import { serveUntilSignal } from './serve.js';
import type { Subcommand } from './types.js';

const help = `Usage: proxy-migrate worker

Runs job workers only (no Slack endpoint). Workers are stateless: run as many replicas as
you like against the same REDIS_URL and QUEUE_PREFIX. They post to Slack with SLACK_BOT_TOKEN.
/healthz, /readyz and /metrics are served on $PORT.

Environment: SLACK_BOT_TOKEN, SLACK_API_URL, REDIS_URL, PORT, CLUSTERS_FILE, LOG_LEVEL,
QUEUE_PREFIX, WORKER_CONCURRENCY, SHUTDOWN_GRACE_SECONDS.

Stops gracefully on SIGTERM or SIGINT: active jobs get SHUTDOWN_GRACE_SECONDS to finish.`;

export const workerCommand: Subcommand = {
  name: 'worker',
  summary: 'run job workers only',
  help,
  run: async (argv, io) => {
    const parsed = parseOrExit(argv, {}, help, io);
    if (!parsed.ok) return parsed.code;
    // Loaded on demand so `--help` and other subcommands stay fast.
    const { startWorker } = await import('./runtime.js');
    return serveUntilSignal('worker', io, (config, logger) => startWorker(config, logger));
  },
};

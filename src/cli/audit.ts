/** `proxy-migrate audit <cluster>`: the audit trail, from the bot's Redis, as text or JSON lines. */
import { auditLine, parseSince } from '../core/audit.js';
import { closeRedis, createRedis, redisAnswers } from '../adapters/redis.js';
import { RedisAuditLog } from '../adapters/audit/redis.js';
import { toUserMessage } from '../errors.js';
import { createLogger } from '../log.js';
import { checkOf, commandLine, formatOptions, usageError, withExamples } from './args.js';
import { auditRetentionMs } from './terminal-runs.js';
import { EXIT, type CliIo, type Subcommand } from './types.js';

const usage =
  'proxy-migrate audit <cluster> [--node NAME] [--since 7d] [--limit N] [-o text|jsonl]';

const body = `Usage: ${usage}

Prints the audit trail the bot (and terminal runs sharing its Redis) recorded for a cluster:
every request, approval and rejection (with its reason), refused click, expiry, cluster write
(with its ClusterAction and who approved it), verification result, rollback and how each run
ended, with the Slack user and team, cluster, node, plan hash, run and time. Oldest first.
Entries are kept AUDIT_RETENTION_DAYS (default 400), trimmed by time.

  --node NAME          one node's entries only
  --since DURATION     how far back: 30m, 12h, 7d (default 7d)
  --limit N            at most this many, the newest (default 1000)
  -o, --format text|jsonl
                       default text; jsonl is one JSON object per line, for export

Reads REDIS_URL (default redis://127.0.0.1:6379) and QUEUE_PREFIX (default proxy-migrate).
Exit codes: 0 printed (even when empty), 1 Redis unreachable or error, 64 usage.`;

const examples = [
  'proxy-migrate audit cluster-a --since 24h',
  'proxy-migrate audit cluster-a --node blue-1 --since 30d -o jsonl',
];

const help = withExamples(body, examples);

const options = {
  ...formatOptions,
  node: { type: 'string' },
  since: { type: 'string', default: '7d' },
  limit: { type: 'string', default: '1000' },
} as const;

interface AuditArgs {
  cluster: string;
  node?: string;
  sinceMs: number;
  limit: number;
  format: 'text' | 'jsonl';
}

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; args: AuditArgs } | { ok: false; code: number } {
  const parsed = commandLine(argv, options, help, io, {
    required: 1,
    missing: 'Which cluster?',
    formats: ['text', 'jsonl'],
  });
  if (!parsed.ok) return parsed;
  const { values, args, format } = parsed.line;
  const since = parseSince(values.since);
  if (since === undefined)
    return { ok: false, code: usageError(io, help, '--since must look like 30m, 12h or 7d.') };
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000)
    return { ok: false, code: usageError(io, help, '--limit must be a whole number from 1.') };
  return {
    ok: true,
    args: {
      cluster: args[0] ?? '',
      ...(values.node === undefined ? {} : { node: values.node }),
      sinceMs: since,
      limit,
      format,
    },
  };
}

export const auditCommand: Subcommand = {
  name: 'audit',
  summary: 'the audit trail of a cluster: who requested, approved, changed and verified what',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { cluster, node, sinceMs: since, limit, format } = parsed.args;
    const redisUrl = io.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const prefix = io.env.QUEUE_PREFIX ?? 'proxy-migrate';
    if (!(await redisAnswers(redisUrl))) {
      io.stderr.write(
        `Redis does not answer at ${redisUrl}: the audit trail lives there. Check REDIS_URL.\n`,
      );
      return EXIT.failure;
    }
    const redis = createRedis(redisUrl, 'producer', createLogger({ level: 'silent' }));
    try {
      const log = new RedisAuditLog(redis, prefix, auditRetentionMs(io.env));
      const entries = await log.query({
        cluster,
        ...(node === undefined ? {} : { node }),
        sinceMs: Date.now() - since,
        limit,
      });
      const oldestFirst = [...entries].reverse();
      io.stdout.write(
        oldestFirst
          .map((e) => (format === 'jsonl' ? JSON.stringify(e) : auditLine(e)))
          .map((line) => `${line}\n`)
          .join(''),
      );
      if (format === 'text' && entries.length === 0)
        io.stderr.write(`Nothing recorded for ${cluster} in that period.\n`);
      return EXIT.ok;
    } catch (error) {
      io.stderr.write(`${toUserMessage(error)}\n`);
      return EXIT.failure;
    } finally {
      await closeRedis(redis);
    }
  },
};

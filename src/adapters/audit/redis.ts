/**
 * The audit log in a Redis stream (`<prefix>:audit`), trimmed by time at every append (XADD
 * MINID, exact: an audit trail is written a few times a minute at most, so the exact cut is
 * cheap; entries older than the retention go, however many there are), with one `<prefix>:audit:seen:<key>`
 * marker per entry for the same retention, so a fact recorded again (by another process, or a
 * resumed run) is not recorded twice. Marker and entry are written in one script.
 */
import type { Redis } from 'ioredis';
import type { AuditEntry } from '../../core/audit.js';
import { AppError } from '../../errors.js';
import type { AuditLog, AuditQuery } from '../../ports/audit-log.js';

const APPEND = `
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('XADD', KEYS[2], 'MINID', tostring(now - tonumber(ARGV[1])), '*', 'e', ARGV[2])
  return 1
end
return 0`;

const PAGE = 500;

export class RedisAuditLog implements AuditLog {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly retentionMs: number,
  ) {}

  private get stream(): string {
    return `${this.prefix}:audit`;
  }

  async append(entries: readonly AuditEntry[]): Promise<number> {
    let added = 0;
    try {
      for (const entry of entries) {
        const result = await this.redis.eval(
          APPEND,
          2,
          `${this.prefix}:audit:seen:${entry.key}`,
          this.stream,
          String(this.retentionMs),
          JSON.stringify(entry),
        );
        if (result === 1) added += 1;
      }
    } catch (cause) {
      throw new AppError('RUN_STORE_UNAVAILABLE', 'The audit log could not be written in Redis.', {
        remedy: 'Check Redis (REDIS_URL); the entries are recorded again from the run state.',
        retryable: true,
        cause,
      });
    }
    return added;
  }

  async query(q: AuditQuery): Promise<AuditEntry[]> {
    const found: AuditEntry[] = [];
    let end = '+';
    try {
      for (;;) {
        const page = await this.redis.xrevrange(this.stream, end, String(q.sinceMs), 'COUNT', PAGE);
        for (const [, fields] of page) {
          const raw = fields[1];
          if (raw === undefined) continue;
          const entry = JSON.parse(raw) as AuditEntry;
          if (entry.cluster !== q.cluster || (q.node !== undefined && entry.node !== q.node))
            continue;
          found.push(entry);
          if (found.length >= q.limit) return found;
        }
        const last = page.at(-1);
        if (page.length < PAGE || last === undefined) return found;
        end = `(${last[0]}`;
      }
    } catch (cause) {
      throw new AppError('RUN_STORE_UNAVAILABLE', 'The audit log could not be read from Redis.', {
        remedy: 'Check Redis (REDIS_URL) and try again.',
        retryable: true,
        cause,
      });
    }
  }
}

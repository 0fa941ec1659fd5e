import { describe, expect, it } from 'vitest';
import {
  MemorySeenRequests,
  SEEN_TTL_SECONDS,
  SharedSeenRequests,
  type SeenRequests,
} from '../../../../src/adapters/http/seen-requests.js';
import { captureLog } from '../../../helpers/log-capture.js';

describe('MemorySeenRequests', () => {
  it('accepts an id once within the window, and again after it', async () => {
    let now = 0;
    const seen = new MemorySeenRequests(() => now);
    expect(await seen.firstSeen('a')).toBe(true);
    expect(await seen.firstSeen('a')).toBe(false);
    expect(await seen.firstSeen('b')).toBe(true);
    now = SEEN_TTL_SECONDS * 1000 + 1;
    expect(await seen.firstSeen('a')).toBe(true);
    expect(await seen.firstSeen('a')).toBe(false);
  });

  it('stays bounded, forgetting the oldest first', async () => {
    const seen = new MemorySeenRequests(() => 0, 3);
    for (const id of ['a', 'b', 'c', 'd']) expect(await seen.firstSeen(id)).toBe(true);
    expect(await seen.firstSeen('d')).toBe(false);
    expect(await seen.firstSeen('a')).toBe(true);
  });
});

describe('SharedSeenRequests', () => {
  const down: SeenRequests = { firstSeen: () => Promise.reject(new Error('ECONNREFUSED')) };
  const slow: SeenRequests = { firstSeen: () => new Promise(() => undefined) };

  it('still refuses a replay to this replica while the shared store is down, and says so', async () => {
    const log = captureLog();
    const seen = new SharedSeenRequests(down, new MemorySeenRequests(), log.logger);
    expect(await seen.firstSeen('a')).toBe(true);
    expect(await seen.firstSeen('a')).toBe(false);
    expect(await seen.firstSeen('b')).toBe(true);
    const warnings = log.lines().filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
  });

  it('does not wait past its deadline for a shared store that does not answer', async () => {
    const seen = new SharedSeenRequests(slow, new MemorySeenRequests(), captureLog().logger, 50);
    const started = Date.now();
    expect(await seen.firstSeen('a')).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('takes the shared answer when there is one: another replica saw it', async () => {
    const other: SeenRequests = { firstSeen: () => Promise.resolve(false) };
    const seen = new SharedSeenRequests(other, new MemorySeenRequests(), captureLog().logger);
    expect(await seen.firstSeen('a')).toBe(false);
  });
});

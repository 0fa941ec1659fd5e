// Which Kubernetes API failures are worth another attempt: reads retry throttling, server
// errors, timeouts and dropped connections; writes only throttling (a 5xx may hide a write).
import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  READ_RETRY,
  retryable,
  retryReason,
  upgradeRefused,
  withRetry,
} from '../../../src/adapters/kubernetes/retry.js';

const api = (code: number, headers: Record<string, string> = {}) =>
  new ApiException(code, 'x', '{}', headers);

describe('retryable', () => {
  it('retries a read on 429 (with the Retry-After asked), 5xx, timeouts and resets; never on 4xx', () => {
    expect(retryable(api(429, { 'retry-after': '3' }), false)).toEqual({
      wait: 'retry-after',
      ms: 3000,
    });
    expect(retryable(api(429), false)).toEqual({ wait: 'backoff' });
    for (const code of [500, 502, 503, 504])
      expect(retryable(api(code), false)).toEqual({ wait: 'backoff' });
    for (const code of [400, 401, 403, 404, 409, 410, 422])
      expect(retryable(api(code), false)).toBeUndefined();
    expect(retryable(Object.assign(new Error('x'), { code: 'ECONNRESET' }), false)).toEqual({
      wait: 'backoff',
    });
    expect(retryable(Object.assign(new Error('x'), { name: 'AbortError' }), false)).toEqual({
      wait: 'backoff',
    });
  });

  it('retries a write on 429 only', () => {
    expect(retryable(api(429, { 'retry-after': '1' }), true)).toEqual({
      wait: 'retry-after',
      ms: 1000,
    });
    expect(retryable(api(503), true)).toBeUndefined();
    expect(retryable(Object.assign(new Error('x'), { code: 'ECONNRESET' }), true)).toBeUndefined();
  });

  it('retries an exec whose WebSocket upgrade was refused or reset before its answer, nothing else', () => {
    // exec() rejects only before the upgrade completes: the command never started.
    expect(
      upgradeRefused(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
    ).toEqual({
      wait: 'backoff',
    });
    expect(upgradeRefused(new Error('Unexpected server response: 429'))).toEqual({
      wait: 'backoff',
    });
    expect(upgradeRefused(new Error('Unexpected server response: 503'))).toEqual({
      wait: 'backoff',
    });
    expect(upgradeRefused(new Error('Unexpected server response: 403'))).toBeUndefined();
    // What client-node's Exec rejects with when the twin resets the upgrade: a ws ErrorEvent.
    expect(
      upgradeRefused({
        message: 'socket hang up',
        error: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      }),
    ).toEqual({ wait: 'backoff' });
    expect(upgradeRefused(new Error('socket hang up'))).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffMs(READ_RETRY, 0, () => 0.5)).toBe(250);
    expect(backoffMs(READ_RETRY, 3, () => 0.5)).toBe(2000);
    expect(backoffMs(READ_RETRY, 10, () => 0.5)).toBe(4000);
    expect(backoffMs(READ_RETRY, 0, () => 0)).toBe(125);
  });

  it('stops after the policy’s attempts and rethrows the last error', async () => {
    let calls = 0;
    const policy = { ...READ_RETRY, baseMs: 1, maxMs: 1 };
    await expect(
      withRetry(
        () => {
          calls += 1;
          return Promise.reject(api(503));
        },
        { write: false, policy },
      ),
    ).rejects.toBeInstanceOf(ApiException);
    expect(calls).toBe(8);
  });
});

describe('retryReason', () => {
  it('names why an attempt is repeated, for the cluster counters', () => {
    expect(retryReason(api(429))).toBe('throttled');
    expect(retryReason(api(503))).toBe('server-error');
    expect(retryReason(api(409))).toBe('conflict');
    expect(retryReason(new Error('Unexpected server response: 429'))).toBe('throttled');
    expect(retryReason(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(retryReason(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('connection');
    expect(retryReason(undefined)).toBe('connection');
  });
});

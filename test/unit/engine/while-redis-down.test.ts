import { describe, expect, it } from 'vitest';
import { whileRedisDown } from '../../../src/engine/while-redis-down.js';
import { AppError } from '../../../src/errors.js';

const fast = { deadlineMs: 200, firstDelayMs: 5, maxDelayMs: 20 };
const down = () =>
  new AppError('RUN_STORE_UNAVAILABLE', 'Run state could not be read or saved in Redis.', {
    remedy: 'Check Redis.',
    retryable: true,
  });

describe('whileRedisDown', () => {
  it('retries while Redis does not answer, and resolves to the write once it does', async () => {
    let calls = 0;
    const result = await whileRedisDown(() => {
      calls += 1;
      return calls < 3 ? Promise.reject(down()) : Promise.resolve('kept');
    }, fast);
    expect(result).toBe('kept');
    expect(calls).toBe(3);
  });

  it('does not retry an error that is not Redis being unreachable', async () => {
    let calls = 0;
    const refused = new AppError('RUN_NOT_FOUND', 'No such run.', { remedy: 'Check the id.' });
    await expect(
      whileRedisDown(() => {
        calls += 1;
        return Promise.reject(refused);
      }, fast),
    ).rejects.toBe(refused);
    expect(calls).toBe(1);
  });

  it('gives up at the deadline with the last error', async () => {
    const started = Date.now();
    await expect(whileRedisDown(() => Promise.reject(down()), fast)).rejects.toMatchObject({
      code: 'RUN_STORE_UNAVAILABLE',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

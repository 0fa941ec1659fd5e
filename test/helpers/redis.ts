/** Real Redis for integration tests; each test gets its own queue prefix so suites run side by side. */
import { randomBytes } from 'node:crypto';
import { deletePrefix } from '../../src/adapters/redis.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export function uniquePrefix(label: string): string {
  return `pmtest-${label}-${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under a test prefix (BullMQ keys are `<prefix>:<queue>:…`). */
export async function dropPrefix(prefix: string): Promise<void> {
  await deletePrefix(REDIS_URL, prefix);
}

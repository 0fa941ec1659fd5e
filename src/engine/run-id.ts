/** Run ids: short, sortable by time, safe as BullMQ job ids (no colon, never all digits). */
import { randomBytes } from 'node:crypto';

export function newRunId(kind: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return `${kind}-${stamp}-${randomBytes(3).toString('hex')}`;
}

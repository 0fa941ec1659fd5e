/**
 * Who is working on a run right now: `host:pid`, kept in the run store with a short TTL while a
 * step executes. A resumer leaves a run alone while its owner is alive; on the same host a dead
 * pid frees it at once, so `proxy-migrate resume` right after a kill -9 need not wait.
 */
import { hostname } from 'node:os';

export const OWNER_TTL_MS = 15_000;

export function ownerIdentity(): string {
  return `${hostname()}:${process.pid}`;
}

export function ownerGone(owner: string | undefined): boolean {
  if (owner === undefined) return true;
  const at = owner.lastIndexOf(':');
  const host = owner.slice(0, at);
  const pid = Number(owner.slice(at + 1));
  if (host !== hostname() || !Number.isInteger(pid)) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Who is working on a run right now: `host#boot:pid`, kept in the run store with a short TTL
 * while a step executes. A resumer leaves a run alone while its owner is alive; on the same host
 * a dead pid frees it at once, so `proxy-migrate resume` right after a kill -9 need not wait.
 * `boot` tells this process from an earlier one with the same pid: in a container the bot is
 * pid 1 after every restart, so host and pid alone would make a killed bot look alive to its own
 * successor until the TTL ran out and BullMQ's stall check came round (about a minute).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

export const OWNER_TTL_MS = 15_000;

const BOOT = randomBytes(4).toString('hex');

export function ownerIdentity(): string {
  return `${hostname()}#${BOOT}:${process.pid}`;
}

/** host, boot (absent in identities written before it existed) and pid of an owner. */
function parse(owner: string): { host: string; boot: string | undefined; pid: number } {
  const at = owner.lastIndexOf(':');
  const where = owner.slice(0, at);
  const hash = where.lastIndexOf('#');
  return {
    host: hash < 0 ? where : where.slice(0, hash),
    boot: hash < 0 ? undefined : where.slice(hash + 1),
    pid: Number(owner.slice(at + 1)),
  };
}

export function ownerGone(owner: string | undefined): boolean {
  if (owner === undefined) return true;
  const { host, boot, pid } = parse(owner);
  if (host !== hostname() || !Number.isInteger(pid)) return false;
  // This pid is this process: the owner is this process, or an earlier one that had our pid.
  if (pid === process.pid) return boot !== undefined && boot !== BOOT;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

// A run's owner names the process incarnation: a restarted bot with the pid of the one that was
// killed (pid 1 in every container) must see its predecessor as gone, not as itself.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ownerGone, ownerIdentity } from '../../../src/engine/owner.js';

describe('ownerGone', () => {
  it('is false for this very process', () => {
    expect(ownerGone(ownerIdentity())).toBe(false);
  });

  it('is true for an earlier process that had this pid', () => {
    expect(ownerGone(`${hostname()}#00000000:${process.pid}`)).toBe(true);
  });

  it('is true for a dead pid on this host, and for nobody', () => {
    expect(ownerGone(`${hostname()}#abcd:2147483646`)).toBe(true);
    expect(ownerGone(undefined)).toBe(true);
  });

  it('is false for a live pid on this host, and for another host (it may be alive)', () => {
    expect(ownerGone(`${hostname()}#abcd:${process.ppid}`)).toBe(false);
    expect(ownerGone(`another-host#abcd:${process.pid}`)).toBe(false);
  });

  it('reads identities written before the incarnation was part of them', () => {
    expect(ownerGone(`${hostname()}:${process.pid}`)).toBe(false);
    expect(ownerGone(`${hostname()}:2147483646`)).toBe(true);
  });
});

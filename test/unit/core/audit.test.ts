// The audit trail's facts come from the saved run: one per request, decision, write,
// verification, refused click and end, each with a stable key so recording twice adds nothing.
import { describe, expect, it } from 'vitest';
import { auditEntries, auditLine, parseSince } from '../../../src/core/audit.js';
import type { RunState } from '../../../src/core/run-state.js';

const bob = { kind: 'slack', userId: 'U0BOB', teamId: 'T0HOME' } as const;
const state: RunState = {
  id: 'co-261201120000-abcdef',
  kind: 'cutover',
  cluster: 'cluster-a',
  node: 'blue-1',
  requester: { kind: 'slack', userId: 'U0ALICE', teamId: 'T0HOME' },
  options: { autoRollback: true, dryRun: false, channel: 'C0OPS' },
  phase: 'done',
  track: 'forward',
  stepIndex: 9,
  steps: [],
  planHash: '9f3c2a1',
  approvals: [
    { decision: 'approved', by: bob, at: '2026-12-01T12:05:00.000Z', planHash: '9f3c2a1' },
  ],
  journal: [
    {
      seq: 1,
      step: 'switching',
      action: {
        kind: 'label-node',
        node: 'blue-1',
        key: 'proxy-migrate.io/mode',
        value: 'switching',
        previous: null,
      },
      status: 'applied',
      approvedBy: bob,
      at: '2026-12-01T12:05:02.000Z',
    },
    {
      seq: 2,
      step: 'switch',
      action: {
        kind: 'label-node',
        node: 'blue-1',
        key: 'proxy-migrate.io/mode',
        value: 'nftables',
        previous: 'switching',
      },
      status: 'pending',
      at: '2026-12-01T12:05:09.000Z',
    },
  ],
  evidence: [
    {
      probe: 'uname',
      step: 'node-preflight',
      argv: [],
      output: '',
      ok: true,
      verdict: 'x',
      at: '2026-12-01T12:04:00.000Z',
    },
    {
      probe: 'nft-table',
      step: 'verify',
      node: 'blue-1',
      argv: ['nft'],
      output: '',
      ok: true,
      verdict: 'table present',
      at: '2026-12-01T12:05:20.000Z',
    },
  ],
  facts: {},
  outcome: 'verified',
  reason: 'Cutover verified',
  createdAt: '2026-12-01T12:00:00.000Z',
  updatedAt: '2026-12-01T12:05:30.000Z',
  history: [
    { at: '2026-12-01T12:03:00.000Z', event: 'approve-refused', note: 'U0ALICE@T0HOME: four-eyes' },
  ],
  version: 30,
};

describe('auditEntries', () => {
  it('records the request, the decision, the applied write, the verification, the refused click and the end', () => {
    const entries = auditEntries(state);
    expect(entries.map((e) => [e.kind, e.key, e.actor ?? '', e.ok])).toEqual([
      ['requested', 'co-261201120000-abcdef/requested', 'slack:U0ALICE@T0HOME', undefined],
      ['approved', 'co-261201120000-abcdef/approved/0', 'slack:U0BOB@T0HOME', undefined],
      ['mutation', 'co-261201120000-abcdef/mutation/1', 'slack:U0BOB@T0HOME', true],
      ['verification', 'co-261201120000-abcdef/verification/1', '', true],
      ['click-refused', 'co-261201120000-abcdef/history/0', '', false],
      ['ended', 'co-261201120000-abcdef/ended', '', true],
    ]);
    const write = entries.find((e) => e.kind === 'mutation');
    expect(write).toMatchObject({ planHash: '9f3c2a1', cluster: 'cluster-a', node: 'blue-1' });
    expect(write?.action).toEqual(state.journal[0]?.action);
    expect(write?.detail).toMatch(/^applied: label node blue-1 proxy-migrate.io\/mode=switching/);
    // The same state gives the same keys: recording again adds nothing.
    expect(auditEntries(state).map((e) => e.key)).toEqual(entries.map((e) => e.key));
  });

  it('calls an expiry an expiry, and records nothing of an unfinished end', () => {
    const expired = auditEntries({
      ...state,
      outcome: 'refused',
      reason: 'the approval request expired',
    });
    expect(expired.at(-1)).toMatchObject({ kind: 'expired', ok: false });
    const running = auditEntries({ ...state, phase: 'running' });
    expect(running.some((e) => e.kind === 'ended')).toBe(false);
  });

  it('reads --since durations and prints one line per entry', () => {
    expect(parseSince('7d')).toBe(7 * 86_400_000);
    expect(parseSince('12h')).toBe(12 * 3_600_000);
    expect(parseSince('30m')).toBe(30 * 60_000);
    expect(parseSince('7 days')).toBeUndefined();
    expect(auditLine(auditEntries(state)[1]!)).toBe(
      '2026-12-01T12:05:00Z · cluster-a/blue-1 co-261201120000-abcdef approved by slack:U0BOB@T0HOME: approved plan 9f3c2a1',
    );
  });
});

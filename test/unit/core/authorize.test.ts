// authorizeClick is the security boundary of Slack approvals: every rule, and the value of a
// button trusted for nothing but a run id.
import { describe, expect, it } from 'vitest';
import { authorizeClick, type Click, type ClickContext } from '../../../src/core/authorize.js';
import type { RunState } from '../../../src/core/run-state.js';

const at = '2026-12-01T12:00:00.000Z';
const alice = { kind: 'slack', userId: 'U0ALICE', teamId: 'T0HOME' } as const;

function run(change: Partial<RunState> = {}): RunState {
  return {
    id: 'co-261201120000-abcdef',
    kind: 'cutover',
    cluster: 'cluster-a',
    node: 'blue-1',
    requester: alice,
    options: { autoRollback: true, dryRun: false, channel: 'C0OPS' },
    phase: 'awaiting-approval',
    track: 'forward',
    stepIndex: 4,
    steps: [],
    planHash: 'abc1234',
    approvals: [],
    journal: [],
    evidence: [],
    facts: { cardTs: '1.1', approvalTs: '1.2' },
    expiresAt: '2026-12-01T12:30:00.000Z',
    createdAt: at,
    updatedAt: at,
    history: [],
    version: 3,
    ...change,
  };
}

const context = (change: Partial<ClickContext> = {}): ClickContext => ({
  homeTeamId: 'T0HOME',
  cluster: {
    name: 'cluster-a',
    approvers: { users: ['U0BOB'], groups: ['S0SRE'] },
    fourEyes: true,
    rollbackNeedsApproval: false,
  },
  groupMembers: new Set(['U0DAVE']),
  now: new Date('2026-12-01T12:10:00.000Z'),
  ...change,
});

const click = (change: Partial<Click> = {}): Click => ({
  kind: 'approve',
  userId: 'U0BOB',
  userTeamId: 'T0HOME',
  channelId: 'C0OPS',
  messageTs: '1.2',
  ...change,
});

const code = (v: ReturnType<typeof authorizeClick>) => (v.ok ? 'ok' : v.code);

describe('authorizeClick', () => {
  it('lets a listed approver or a member of an approver group approve a waiting run', () => {
    expect(authorizeClick(run(), click(), context())).toEqual({
      ok: true,
      actor: { kind: 'slack', userId: 'U0BOB', teamId: 'T0HOME' },
    });
    expect(code(authorizeClick(run(), click({ userId: 'U0DAVE' }), context()))).toBe('ok');
  });

  it('refuses strangers, other teams, and approvers’ ids from another team', () => {
    expect(code(authorizeClick(run(), click({ userId: 'U0CAROL' }), context()))).toBe(
      'NOT_APPROVER',
    );
    expect(code(authorizeClick(run(), click({ userTeamId: 'T0OTHER' }), context()))).toBe(
      'OTHER_TEAM',
    );
  });

  it('refuses the requester approving their own run while four-eyes is on, and only then', () => {
    const own = run({ requester: { kind: 'slack', userId: 'U0BOB', teamId: 'T0HOME' } });
    expect(code(authorizeClick(own, click(), context()))).toBe('OWN_REQUEST');
    const off = context({ cluster: { ...context().cluster, fourEyes: false } });
    expect(code(authorizeClick(own, click(), off))).toBe('ok');
    // The same user id from another team is not the requester, and not an approver either.
    expect(code(authorizeClick(own, click({ userTeamId: 'T0OTHER' }), context()))).toBe(
      'OTHER_TEAM',
    );
  });

  it('refuses a button that is not on one of the run’s own messages, or in another channel', () => {
    expect(code(authorizeClick(run(), click({ messageTs: '9.9' }), context()))).toBe(
      'WRONG_MESSAGE',
    );
    expect(code(authorizeClick(run(), click({ channelId: 'C0ELSE' }), context()))).toBe(
      'WRONG_MESSAGE',
    );
  });

  it('refuses once the run no longer waits, saying who decided, and after the expiry', () => {
    const decided = run({
      phase: 'running',
      approvals: [
        {
          decision: 'approved',
          by: { kind: 'slack', userId: 'U0DAVE', teamId: 'T0HOME' },
          at: '2026-12-01T12:05:00.000Z',
        },
      ],
    });
    const verdict = authorizeClick(decided, click(), context());
    expect(verdict).toMatchObject({ ok: false, code: 'NOT_WAITING' });
    expect(verdict.ok ? '' : verdict.reason).toMatch(/already approved by <@U0DAVE> at 12:05 UTC/);
    const late = context({ now: new Date('2026-12-01T12:30:00.000Z') });
    expect(code(authorizeClick(run(), click(), late))).toBe('EXPIRED');
  });

  it('lets the requester withdraw (reject) their own run, not a stranger', () => {
    expect(
      code(authorizeClick(run(), click({ kind: 'reject', userId: 'U0ALICE' }), context())),
    ).toBe('ok');
    expect(
      code(authorizeClick(run(), click({ kind: 'reject', userId: 'U0CAROL' }), context())),
    ).toBe('NOT_APPROVER');
  });

  it('allows Rollback on an ended cutover that wrote, to its requester and approvers only', () => {
    const ended = run({
      phase: 'done',
      outcome: 'verified',
      facts: { cardTs: '1.1', resultTs: '1.3' },
    });
    const rb = (userId: string) => click({ kind: 'rollback', userId, messageTs: '1.3' });
    expect(code(authorizeClick(ended, rb('U0ALICE'), context()))).toBe('ok');
    expect(code(authorizeClick(ended, rb('U0DAVE'), context()))).toBe('ok');
    expect(code(authorizeClick(ended, rb('U0CAROL'), context()))).toBe('NOT_APPROVER');
    expect(code(authorizeClick(run(), rb('U0BOB'), context()))).toBe('WRONG_MESSAGE');
    expect(
      code(authorizeClick({ ...run(), facts: { resultTs: '1.3' } }, rb('U0BOB'), context())),
    ).toBe('NOT_ROLLBACKABLE');
    const refused = { ...ended, outcome: 'refused' as const };
    expect(code(authorizeClick(refused, rb('U0BOB'), context()))).toBe('NOT_ROLLBACKABLE');
    const rollbackRun = { ...ended, kind: 'rollback' as const };
    expect(code(authorizeClick(rollbackRun, rb('U0BOB'), context()))).toBe('NOT_ROLLBACKABLE');
  });
});

import { describe, expect, it } from 'vitest';
import type { ClusterConfig } from '../../../src/config.js';
import type { RunState } from '../../../src/core/run-state.js';
import { authorize, clickFacts } from '../../../src/interactions/click.js';
import type { InteractionDeps } from '../../../src/interactions/types.js';
import { createLogger } from '../../../src/log.js';

const click = (user: Record<string, unknown>) => ({
  type: 'block_actions',
  user,
  team: { id: 'T0HOME' },
  container: { channel_id: 'C0OPS', message_ts: '1700000000.000100' },
  actions: [{ action_id: 'run.approve', value: 'co-abcdef' }],
  trigger_id: 't',
});

describe('clickFacts', () => {
  it('reads the clicking user’s own team, and the request’s team only when the user names none', () => {
    expect(clickFacts(click({ id: 'U0BOB', team_id: 'T0OTHER' }))).toMatchObject({
      userId: 'U0BOB',
      userTeamId: 'T0OTHER',
    });
    expect(clickFacts(click({ id: 'U0BOB' }))).toMatchObject({ userTeamId: 'T0HOME' });
  });

  // Found by the bad-input suite: an empty or over-long user.team_id fell back to the request's
  // team, so a click naming a bogus team counted as the home team's (and an approver's approved).
  it.each([[''], ['T'.repeat(301)], [null], [7], [{ id: 'T0HOME' }]])(
    'refuses a user.team_id of %j instead of taking the home team',
    (teamId) => {
      expect(clickFacts(click({ id: 'U0BOB', team_id: teamId }))).toEqual({ invalid: 'no user' });
    },
  );
});

describe('authorize', () => {
  const at = '2026-12-01T12:00:00.000Z';
  const waiting = (facts: Record<string, unknown>): RunState => ({
    id: 'co-261201120000-abcdef',
    kind: 'cutover',
    cluster: 'cluster-a',
    node: 'blue-1',
    requester: { kind: 'slack', userId: 'U0ALICE', teamId: 'T0HOME' },
    options: { autoRollback: true, dryRun: false, channel: 'C0OPS' },
    phase: 'awaiting-approval',
    track: 'forward',
    stepIndex: 4,
    steps: [],
    approvals: [],
    journal: [],
    evidence: [],
    facts,
    expiresAt: '2026-12-01T12:30:00.000Z',
    createdAt: at,
    updatedAt: at,
    history: [],
    version: 3,
  });
  const deps = (reads: RunState[]): InteractionDeps => {
    let n = 0;
    return {
      config: {
        clusters: [
          {
            name: 'cluster-a',
            approvers: { users: ['U0BOB'], groups: [] },
            fourEyes: true,
          } as unknown as ClusterConfig,
        ],
      },
      runs: {
        get: () => Promise.resolve(reads[Math.min(n++, reads.length - 1)]),
        signal: () => Promise.resolve({ saved: true } as never),
        start: () => Promise.reject(new Error('not here')),
        claim: () => Promise.reject(new Error('not here')),
      },
      homeTeamId: 'T0HOME',
      groups: { members: () => Promise.resolve(new Set<string>()) },
      planHashNow: () => Promise.resolve({ hash: 'abc1234' }),
      clock: { now: () => new Date('2026-12-01T12:10:00.000Z') },
      logger: createLogger({ level: 'silent' }),
    };
  };
  const facts = {
    runId: 'co-261201120000-abcdef',
    userId: 'U0BOB',
    userTeamId: 'T0HOME',
    channelId: 'C0OPS',
    messageTs: '1.2',
  };

  // A card is clickable the moment Slack shows it, a moment before the run keeps its ts.
  it('waits for the run to keep the approval card’s ts before calling the button foreign', async () => {
    const before = waiting({ cardTs: '1.1' });
    const after = waiting({ cardTs: '1.1', approvalTs: '1.2' });
    const result = await authorize(deps([before, before, after]), 'approve', facts);
    expect(result.ok).toBe(true);
  });

  it('refuses a button from another message once the run has its ts', async () => {
    const known = waiting({ cardTs: '1.1', approvalTs: '1.3' });
    const result = await authorize(deps([known]), 'approve', facts);
    expect(result).toMatchObject({ ok: false, code: 'WRONG_MESSAGE' });
  });
});

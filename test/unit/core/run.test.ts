// transition() is the only place that decides what a run does next: every phase, every event.
import { describe, expect, it } from 'vitest';
import type { ClusterAction } from '../../../src/core/actions.js';
import { hasWritten, newRun, transition } from '../../../src/core/run.js';
import type { RunEvent } from '../../../src/core/run-events.js';
import type { Actor, RunOptions, RunState } from '../../../src/core/run-state.js';
import type { Runbook } from '../../../src/core/runbook.js';

const runbook: Runbook = {
  kind: 'cutover',
  title: 'Cutover',
  mutates: true,
  backoffMs: 1_000,
  steps: [
    { id: 'gate', kind: 'gate', uses: 'g', title: 'gate', attempts: 2 },
    { id: 'plan', kind: 'plan', uses: 'p', title: 'plan' },
    { id: 'approval', kind: 'approval', uses: 'approval', title: 'approval' },
    { id: 'label', kind: 'apply', uses: 'l', title: 'label' },
    { id: 'verify', kind: 'verify', uses: 'v', title: 'verify' },
  ],
  rollback: [
    { id: 'revert', kind: 'revert', uses: 'r', title: 'revert' },
    { id: 'verify-back', kind: 'verify', uses: 'vb', title: 'verify back' },
  ],
};

const alice: Actor = { kind: 'slack', userId: 'UALICE', teamId: 'T1' };
const bob: Actor = { kind: 'slack', userId: 'UBOB', teamId: 'T1' };
const label: ClusterAction = {
  kind: 'label-node',
  node: 'n1',
  key: 'proxy-migrate.io/mode',
  value: 'nftables',
  previous: null,
};
const t = (s: number): string => new Date(Date.UTC(2026, 11, 1, 12, 0, s)).toISOString();

function start(options: Partial<RunOptions> = {}): RunState {
  return newRun(runbook, {
    id: 'co-1',
    cluster: 'c',
    node: 'n1',
    requester: alice,
    options: { autoRollback: true, dryRun: false, approvalTtlMs: 60_000, ...options },
    at: t(0),
  }).state;
}

function step(state: RunState, events: RunEvent[]): RunState {
  return events.reduce((s, e) => {
    const r = transition(runbook, s, e);
    expect(r.refused, `${e.type}: ${r.refused ?? ''}`).toBeUndefined();
    return r.state;
  }, state);
}

const ok = (id: string, at = t(1)): RunEvent[] => [
  { type: 'step-started', stepId: id, at },
  { type: 'step-completed', stepId: id, at },
];

function awaitingApproval(): RunState {
  return step(start(), [
    ...ok('gate'),
    { type: 'step-started', stepId: 'plan', at: t(1) },
    { type: 'step-completed', stepId: 'plan', at: t(1), plan: { hash: 'abc1234', actions: ['x'] } },
  ]);
}

function written(): RunState {
  return step(awaitingApproval(), [
    { type: 'approved', by: bob, at: t(2), planHash: 'abc1234' },
    { type: 'step-started', stepId: 'label', at: t(3) },
    { type: 'action-started', stepId: 'label', at: t(3), action: label },
    { type: 'action-finished', seq: 1, at: t(3), status: 'applied' },
    { type: 'step-completed', stepId: 'label', at: t(3) },
    { type: 'step-started', stepId: 'verify', at: t(4) },
  ]);
}

describe('transition', () => {
  it('starts at the first step and asks for it to run', () => {
    const r = newRun(runbook, {
      id: 'co-1',
      cluster: 'c',
      requester: alice,
      options: { autoRollback: true, dryRun: false },
      at: t(0),
    });
    expect(r.state.phase).toBe('running');
    expect(r.effects).toEqual([{ type: 'execute', stepId: 'gate' }]);
    expect(r.state.steps.map((s) => `${s.track}:${s.id}:${s.status}`)).toEqual([
      'forward:gate:pending',
      'forward:plan:pending',
      'forward:approval:pending',
      'forward:label:pending',
      'forward:verify:pending',
      'rollback:revert:pending',
      'rollback:verify-back:pending',
    ]);
  });

  it('waits for a person at the approval step, with an expiry timer', () => {
    const s = awaitingApproval();
    expect(s.phase).toBe('awaiting-approval');
    expect(s.planHash).toBe('abc1234');
    expect(s.expiresAt).toBe(new Date(Date.parse(t(1)) + 60_000).toISOString());
    const r = transition(runbook, awaitingApproval(), {
      type: 'approved',
      by: bob,
      at: t(2),
      planHash: 'abc1234',
    });
    expect(r.state.phase).toBe('running');
    expect(r.state.approvals).toEqual([
      { decision: 'approved', by: bob, at: t(2), planHash: 'abc1234' },
    ]);
    expect(r.effects).toEqual([{ type: 'execute', stepId: 'label' }]);
    expect(r.state.expiresAt).toBeUndefined();
  });

  it('records who approved on every journal entry written after the approval', () => {
    expect(written().journal).toEqual([
      { seq: 1, step: 'label', action: label, status: 'applied', at: t(3), approvedBy: bob },
    ]);
    expect(hasWritten(written())).toBe(true);
  });

  it('ends verified after the last step', () => {
    const r = transition(runbook, written(), {
      type: 'step-completed',
      stepId: 'verify',
      at: t(5),
    });
    expect(r.state.phase).toBe('done');
    expect(r.state.outcome).toBe('verified');
    expect(r.effects).toEqual([{ type: 'finished', outcome: 'verified' }]);
  });

  it('rolls back after a failed verification once something was written', () => {
    const r = transition(runbook, written(), {
      type: 'step-failed',
      stepId: 'verify',
      at: t(5),
      failure: { kind: 'verification', message: 'nft table missing', retryable: false },
    });
    expect(r.state.phase).toBe('rolling-back');
    expect(r.state.track).toBe('rollback');
    expect(r.effects).toEqual([{ type: 'execute', stepId: 'revert' }]);
    const back = step(r.state, [...ok('revert', t(6)), ...ok('verify-back', t(7))]);
    expect(back.outcome).toBe('rolled-back');
    expect(back.reason).toBe('nft table missing; rolled back');
  });

  it('needs a person when automatic rollback is off, or when the rollback fails', () => {
    const off = { ...written(), options: { ...written().options, autoRollback: false } };
    const failure = {
      kind: 'deadline' as const,
      message: 'new pod not Ready in 120 s',
      retryable: false,
    };
    const r = transition(runbook, off, {
      type: 'step-failed',
      stepId: 'verify',
      at: t(5),
      failure,
    });
    expect(r.state.outcome).toBe('needs-attention');
    const rolling = transition(runbook, written(), {
      type: 'step-failed',
      stepId: 'verify',
      at: t(5),
      failure,
    }).state;
    const stuck = step(rolling, [{ type: 'step-started', stepId: 'revert', at: t(6) }]);
    const end = transition(runbook, stuck, {
      type: 'step-failed',
      stepId: 'revert',
      at: t(7),
      failure: { kind: 'deadline', message: 'original pod not Ready', retryable: false },
    });
    expect(end.state.outcome).toBe('needs-attention');
    expect(end.state.reason).toBe('rollback failed: original pod not Ready');
  });

  it('refuses before any write when a gate says no, and fails on an error', () => {
    const running = step(start(), [{ type: 'step-started', stepId: 'gate', at: t(1) }]);
    const refused = transition(runbook, running, {
      type: 'step-failed',
      stepId: 'gate',
      at: t(1),
      failure: { kind: 'refusal', message: 'kernel 5.4 < 5.13', retryable: false },
    });
    expect(refused.state.outcome).toBe('refused');
    expect(refused.state.reason).toBe('kernel 5.4 < 5.13');
    const failed = transition(runbook, running, {
      type: 'step-failed',
      stepId: 'gate',
      at: t(1),
      failure: {
        kind: 'error',
        message: 'API unreachable',
        code: 'K8S_UNREACHABLE',
        retryable: false,
      },
    });
    expect(failed.state.outcome).toBe('failed');
  });

  it('retries a retryable step error up to its attempts, with a doubling backoff', () => {
    const running = step(start(), [{ type: 'step-started', stepId: 'gate', at: t(1) }]);
    const failure = { kind: 'error' as const, message: '503', retryable: true };
    const retry = transition(runbook, running, {
      type: 'step-failed',
      stepId: 'gate',
      at: t(1),
      failure,
    });
    expect(retry.effects).toEqual([{ type: 'execute', stepId: 'gate', delayMs: 1_000 }]);
    expect(retry.state.steps[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      note: '503',
      error: { message: '503' },
    });
    const again = step(retry.state, [{ type: 'step-started', stepId: 'gate', at: t(2) }]);
    const last = transition(runbook, again, {
      type: 'step-failed',
      stepId: 'gate',
      at: t(2),
      failure,
    });
    expect(last.state.outcome).toBe('failed');
    expect(last.state.steps[0]).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('skips the approval in a dry run and ends without writing', () => {
    const s = step(start({ dryRun: true }), [...ok('gate'), ...ok('plan')]);
    expect(s.outcome).toBe('verified');
    expect(s.reason).toMatch(/^dry run/);
    expect(s.journal).toEqual([]);
  });

  it('takes a terminal confirmation given up front as the approval', () => {
    const me: Actor = { kind: 'terminal', user: 'ops' };
    const s = step(start({ preApproved: me }), [...ok('gate'), ...ok('plan')]);
    expect(s.phase).toBe('running');
    expect(s.approvals[0]).toMatchObject({ decision: 'approved', by: me });
  });

  it('refuses an approval when the plan changed, and after the expiry', () => {
    const changed = transition(runbook, awaitingApproval(), {
      type: 'approved',
      by: bob,
      at: t(2),
      planHash: 'fff0000',
    });
    expect(changed.refused).toBe('the plan changed since the request');
    expect(changed.state.outcome).toBe('refused');
    expect(changed.state.reason).toMatch(/plan abc1234 is now fff0000/);
    const late = transition(runbook, awaitingApproval(), {
      type: 'approved',
      by: bob,
      at: new Date(Date.parse(t(1)) + 60_000).toISOString(),
      planHash: 'abc1234',
    });
    expect(late.refused).toBe('the approval request has expired');
    expect(late.state.outcome).toBe('refused');
    const expired = transition(runbook, awaitingApproval(), { type: 'expired', at: t(59) });
    expect(expired.state.reason).toBe('the approval request expired');
  });

  it('records a rejection with its reason', () => {
    const r = transition(runbook, awaitingApproval(), {
      type: 'rejected',
      by: bob,
      at: t(2),
      reason: 'change freeze',
    });
    expect(r.state.outcome).toBe('refused');
    expect(r.state.reason).toBe('rejected: change freeze');
    expect(r.state.approvals).toEqual([
      { decision: 'rejected', by: bob, at: t(2), planHash: 'abc1234', reason: 'change freeze' },
    ]);
  });

  it('resumes the step that was running when the process died', () => {
    const r = transition(runbook, written(), {
      type: 'resumed',
      at: t(9),
      reason: 'worker restarted',
    });
    expect(r.effects).toEqual([{ type: 'execute', stepId: 'verify' }]);
    expect(r.state.steps.find((s) => s.id === 'verify')?.status).toBe('pending');
    expect(r.state.history.at(-1)).toEqual({
      at: t(9),
      event: 'resumed',
      note: 'worker restarted',
    });
  });

  it('asks again for an approval a killed process never posted, in Slack only', () => {
    const slack = step(start({ channel: 'C1' }), [
      ...ok('gate'),
      { type: 'step-started', stepId: 'plan', at: t(1) },
      { type: 'step-completed', stepId: 'plan', at: t(1), plan: { hash: 'abc1234', actions: [] } },
    ]);
    const resumed = { type: 'resumed', at: t(9), reason: 'bot started' } as const;
    const expiresAt = slack.expiresAt ?? '';
    expect(transition(runbook, slack, resumed).effects).toEqual([
      { type: 'schedule-expiry', at: expiresAt },
      { type: 'request-approval', expiresAt },
    ]);
    // Posted already (its ts is on the run): the card is not asked for twice.
    const posted = { ...slack, facts: { ...slack.facts, approvalTs: '1.2' } };
    expect(transition(runbook, posted, resumed).effects).toEqual([
      { type: 'schedule-expiry', at: expiresAt },
    ]);
    // A terminal run has no card: its prompt is the terminal's business.
    expect(transition(runbook, awaitingApproval(), resumed).effects).toEqual([
      { type: 'schedule-expiry', at: awaitingApproval().expiresAt },
    ]);
  });

  it('stops before the next write when the lock is lost', () => {
    const r = transition(runbook, written(), {
      type: 'lock-lost',
      at: t(5),
      holder: 'proxy-migrate/x',
    });
    expect(r.state.outcome).toBe('needs-attention');
    const early = step(start(), [{ type: 'step-started', stepId: 'gate', at: t(1) }]);
    expect(transition(runbook, early, { type: 'lock-lost', at: t(1) }).state.outcome).toBe(
      'refused',
    );
  });

  it('cancels into a refusal before writes and into a rollback after', () => {
    const me: Actor = { kind: 'terminal', user: 'ops' };
    expect(
      transition(runbook, awaitingApproval(), {
        type: 'cancelled',
        by: me,
        at: t(2),
        reason: 'ctrl-c',
      }).state.outcome,
    ).toBe('refused');
    expect(
      transition(runbook, written(), { type: 'cancelled', by: me, at: t(5), reason: 'ctrl-c' })
        .state.phase,
    ).toBe('rolling-back');
  });

  it('keeps bookkeeping facts in any phase, even after the end', () => {
    const done = transition(runbook, written(), {
      type: 'step-completed',
      stepId: 'verify',
      at: t(5),
    }).state;
    const r = transition(runbook, done, { type: 'recorded', at: t(6), facts: { cardTs: '1.2' } });
    expect(r.state.facts).toEqual({ cardTs: '1.2' });
    expect(r.refused).toBeUndefined();
  });

  it('keeps a refused click in the history, changing nothing else', () => {
    const s = awaitingApproval();
    const r = transition(runbook, s, {
      type: 'recorded',
      at: t(7),
      facts: {},
      note: { event: 'approve-refused', note: 'UCAROL@T1: not an approver' },
    });
    expect(r.effects).toEqual([]);
    expect(r.state.history.at(-1)).toEqual({
      at: t(7),
      event: 'approve-refused',
      note: 'UCAROL@T1: not an approver',
    });
    expect({ ...r.state, history: s.history }).toEqual(s);
  });
});

describe('transition refuses every illegal event in every phase and changes nothing', () => {
  const me: Actor = { kind: 'terminal', user: 'ops' };
  const events: RunEvent[] = [
    { type: 'step-started', stepId: 'label', at: t(9) },
    { type: 'step-completed', stepId: 'label', at: t(9) },
    {
      type: 'step-failed',
      stepId: 'label',
      at: t(9),
      failure: { kind: 'error', message: 'x', retryable: false },
    },
    { type: 'action-started', stepId: 'label', at: t(9), action: label },
    { type: 'action-finished', seq: 7, at: t(9), status: 'applied' },
    { type: 'approved', by: bob, at: t(9) },
    { type: 'rejected', by: bob, at: t(9) },
    { type: 'expired', at: t(9) },
    { type: 'resumed', at: t(9), reason: 'restart' },
    { type: 'lock-lost', at: t(9) },
    { type: 'cancelled', by: me, at: t(9), reason: 'x' },
  ];
  const done = transition(runbook, written(), {
    type: 'step-completed',
    stepId: 'verify',
    at: t(5),
  }).state;
  const rolling = transition(runbook, written(), {
    type: 'step-failed',
    stepId: 'verify',
    at: t(5),
    failure: { kind: 'verification', message: 'x', retryable: false },
  }).state;
  const phases: [string, RunState, RunEvent['type'][]][] = [
    // running, at the gate (pending): only its start, resume, lock-lost and cancel are legal.
    ['running', start(), ['step-started', 'resumed', 'lock-lost', 'cancelled']],
    [
      'awaiting-approval',
      awaitingApproval(),
      ['approved', 'rejected', 'expired', 'resumed', 'cancelled'],
    ],
    // rolling back, before the revert step started.
    ['rolling-back', rolling, ['resumed', 'lock-lost']],
    ['done', done, []],
  ];
  for (const [phase, state, legal] of phases) {
    for (const event of events) {
      if (legal.includes(event.type)) continue;
      it(`${phase}: ${event.type}`, () => {
        const r = transition(runbook, state, event);
        expect(r.refused).toBeDefined();
        expect(r.state).toBe(state);
        expect(r.effects).toEqual([]);
      });
    }
  }

  it('refuses a second start of a running step and a result for a step that is not current', () => {
    const running = step(start(), [{ type: 'step-started', stepId: 'gate', at: t(1) }]);
    expect(
      transition(runbook, running, { type: 'step-started', stepId: 'gate', at: t(1) }).refused,
    ).toBe('step gate is already running');
    expect(
      transition(runbook, running, { type: 'step-completed', stepId: 'plan', at: t(1) }).refused,
    ).toBe('step plan is not the current step');
  });

  it('refuses a double approval: the second click is told the run moved on', () => {
    const once = transition(runbook, awaitingApproval(), {
      type: 'approved',
      by: bob,
      at: t(2),
    }).state;
    expect(transition(runbook, once, { type: 'approved', by: alice, at: t(2) }).refused).toBe(
      'the run is running, not awaiting approval',
    );
  });
});

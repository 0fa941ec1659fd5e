/**
 * transition(runbook, state, event): the only place that decides what a run does next. Pure: the
 * same state and event give the same new state and effects, so every phase and every event,
 * legal or not, is unit-tested. An illegal event (a second click, a stale timer, a step result
 * for a step that is not running) leaves the state as it was and says why.
 */
import { isHousekeeping } from './actions.js';
import type { Effect, RunEvent, StepFailure } from './run-events.js';
import type { Outcome, RunState, StepRecord } from './run-state.js';
import { stepsOf, type Runbook, type Step, type Track } from './runbook.js';

export interface TransitionResult {
  state: RunState;
  effects: Effect[];
  /** Set when the event was refused: the state is unchanged and this says why. */
  refused?: string;
}

/** Whether the run has sent (or may have sent) a write that changes what the cluster runs. */
export function hasWritten(state: RunState): boolean {
  return state.journal.some(
    (e) => !isHousekeeping(e.action) && e.status !== 'unchanged' && e.status !== 'failed',
  );
}

export function currentStep(runbook: Runbook, state: RunState): Step | undefined {
  return stepsOf(runbook, state.track)[state.stepIndex];
}

export function stepRecord(state: RunState, track: Track, id: string): StepRecord | undefined {
  return state.steps.find((s) => s.track === track && s.id === id);
}

const refuse = (state: RunState, why: string): TransitionResult => ({
  state,
  effects: [],
  refused: why,
});

function withStep(state: RunState, id: string, change: Partial<StepRecord>): StepRecord[] {
  return state.steps.map((s) => (s.track === state.track && s.id === id ? { ...s, ...change } : s));
}

function finish(state: RunState, outcome: Outcome, reason: string, at: string): TransitionResult {
  const { expiresAt: _gone, ...rest } = state;
  return {
    state: { ...rest, phase: 'done', outcome, reason, updatedAt: at },
    effects: [{ type: 'finished', outcome }],
  };
}

/** Enters the step at `index` of the current track: runs it, asks for approval, or finishes. */
function enter(runbook: Runbook, state: RunState, index: number, at: string): TransitionResult {
  const steps = stepsOf(runbook, state.track);
  const step = steps[index];
  const moved: RunState = { ...state, stepIndex: index, updatedAt: at };
  if (step === undefined) {
    if (state.track === 'rollback') {
      return finish(moved, 'rolled-back', state.reason ?? 'rolled back and verified', at);
    }
    return finish(moved, 'verified', state.reason ?? `${runbook.title} verified`, at);
  }
  if (step.kind === 'approval') {
    if (state.options.dryRun) {
      return finish(
        { ...moved, steps: withStep(moved, step.id, { status: 'skipped' }) },
        'verified',
        'dry run: the plan was confirmed by a server-side dry run; nothing was written',
        at,
      );
    }
    const pre = state.options.preApproved;
    if (pre !== undefined) {
      const approved: RunState = {
        ...moved,
        approvals: [
          ...moved.approvals,
          {
            decision: 'approved',
            by: pre,
            at,
            ...(state.planHash === undefined ? {} : { planHash: state.planHash }),
          },
        ],
        steps: withStep(moved, step.id, {
          status: 'done',
          startedAt: at,
          endedAt: at,
          note: 'confirmed in the terminal',
        }),
      };
      return enter(runbook, approved, index + 1, at);
    }
    const ttl = state.options.approvalTtlMs ?? 30 * 60_000;
    const expiresAt = new Date(Date.parse(at) + ttl).toISOString();
    return {
      state: {
        ...moved,
        phase: 'awaiting-approval',
        expiresAt,
        steps: withStep(moved, step.id, { status: 'running', startedAt: at }),
      },
      effects: [
        { type: 'request-approval', expiresAt },
        { type: 'schedule-expiry', at: expiresAt },
      ],
    };
  }
  return { state: moved, effects: [{ type: 'execute', stepId: step.id }] };
}

/** A failure after the last retry: refuse, fail, roll back or call for a person. */
function failed(
  runbook: Runbook,
  state: RunState,
  failure: StepFailure,
  at: string,
): TransitionResult {
  if (state.track === 'rollback') {
    return finish(state, 'needs-attention', `rollback failed: ${failure.message}`, at);
  }
  if (!hasWritten(state)) {
    return finish(state, failure.kind === 'refusal' ? 'refused' : 'failed', failure.message, at);
  }
  if (!state.options.autoRollback || runbook.rollback.length === 0) {
    return finish(
      state,
      'needs-attention',
      `${failure.message} (automatic rollback is off: the node was left as it is)`,
      at,
    );
  }
  const rolling: RunState = {
    ...state,
    phase: 'rolling-back',
    track: 'rollback',
    reason: `${failure.message}; rolled back`,
    history: [...state.history, { at, event: 'rollback-started', note: failure.message }],
  };
  return enter(runbook, rolling, 0, at);
}

function onStepEvent(
  runbook: Runbook,
  state: RunState,
  event: Extract<RunEvent, { type: 'step-started' | 'step-completed' | 'step-failed' }>,
): TransitionResult {
  const step = currentStep(runbook, state);
  if (step === undefined || step.id !== event.stepId) {
    return refuse(state, `step ${event.stepId} is not the current step`);
  }
  const record = stepRecord(state, state.track, step.id);
  if (event.type === 'step-started') {
    if (record?.status === 'running') return refuse(state, `step ${step.id} is already running`);
    return {
      state: {
        ...state,
        updatedAt: event.at,
        steps: withStep(state, step.id, {
          status: 'running',
          attempts: (record?.attempts ?? 0) + 1,
          startedAt: record?.startedAt ?? event.at,
        }),
      },
      effects: [],
    };
  }
  if (record?.status !== 'running') return refuse(state, `step ${step.id} is not running`);
  const kept: RunState = {
    ...state,
    evidence: [...state.evidence, ...(event.evidence ?? [])],
    facts: { ...state.facts, ...(event.facts ?? {}) },
    updatedAt: event.at,
  };
  if (event.type === 'step-completed') {
    const done: RunState = {
      ...kept,
      ...(event.plan === undefined ? {} : { plan: event.plan, planHash: event.plan.hash }),
      steps: withStep(kept, step.id, {
        status: 'done',
        endedAt: event.at,
        ...(event.note === undefined ? {} : { note: event.note }),
      }),
    };
    return enter(runbook, done, state.stepIndex + 1, event.at);
  }
  const { failure } = event;
  const attempts = record.attempts;
  const error = {
    message: failure.message,
    ...(failure.code === undefined ? {} : { code: failure.code }),
    ...(failure.remedy === undefined ? {} : { remedy: failure.remedy }),
  };
  if (failure.retryable && attempts < (step.attempts ?? 1)) {
    return {
      state: {
        ...kept,
        steps: withStep(kept, step.id, { status: 'pending', note: failure.message, error }),
      },
      effects: [
        { type: 'execute', stepId: step.id, delayMs: runbook.backoffMs * 2 ** (attempts - 1) },
      ],
    };
  }
  const marked: RunState = {
    ...kept,
    steps: withStep(kept, step.id, {
      status: 'failed',
      endedAt: event.at,
      note: failure.message,
      error,
    }),
  };
  return failed(runbook, marked, failure, event.at);
}

function inMotion(state: RunState): boolean {
  return state.phase === 'running' || state.phase === 'rolling-back';
}

export function transition(runbook: Runbook, state: RunState, event: RunEvent): TransitionResult {
  if (event.type === 'recorded') {
    const facts = { ...state.facts, ...event.facts };
    const note = event.note;
    if (note === undefined) return { state: { ...state, facts }, effects: [] };
    const history = [...state.history, { at: event.at, event: note.event, note: note.note }];
    return { state: { ...state, facts, history }, effects: [] };
  }
  if (state.phase === 'done')
    return refuse(state, `the run already ended (${state.outcome ?? 'done'})`);
  switch (event.type) {
    case 'step-started':
    case 'step-completed':
    case 'step-failed':
      if (!inMotion(state)) return refuse(state, `the run is ${state.phase}`);
      return onStepEvent(runbook, state, event);
    case 'action-started': {
      const step = currentStep(runbook, state);
      if (!inMotion(state) || step?.id !== event.stepId)
        return refuse(state, `step ${event.stepId} is not running`);
      const approval = [...state.approvals].reverse().find((a) => a.decision === 'approved');
      const seq = (state.journal.at(-1)?.seq ?? 0) + 1;
      return {
        state: {
          ...state,
          updatedAt: event.at,
          journal: [
            ...state.journal,
            {
              seq,
              step: event.stepId,
              action: event.action,
              status: 'pending',
              at: event.at,
              ...(approval === undefined ? {} : { approvedBy: approval.by }),
              ...(event.undoes === undefined ? {} : { undoes: event.undoes }),
            },
          ],
        },
        effects: [],
      };
    }
    case 'action-finished': {
      const entry = state.journal.find((e) => e.seq === event.seq);
      if (entry === undefined || entry.status !== 'pending')
        return refuse(state, `journal entry ${event.seq} is not pending`);
      return {
        state: {
          ...state,
          updatedAt: event.at,
          journal: state.journal.map((e) =>
            e.seq === event.seq
              ? {
                  ...e,
                  status: event.status,
                  ...(event.error === undefined ? {} : { error: event.error }),
                }
              : e,
          ),
        },
        effects: [],
      };
    }
    case 'approved':
    case 'rejected':
    case 'expired': {
      if (state.phase !== 'awaiting-approval')
        return refuse(state, `the run is ${state.phase}, not awaiting approval`);
      const step = currentStep(runbook, state);
      if (step === undefined) return refuse(state, 'no approval step');
      const lapsed =
        state.expiresAt !== undefined && Date.parse(event.at) >= Date.parse(state.expiresAt);
      const close = (status: StepRecord['status'], note: string): RunState => ({
        ...state,
        phase: 'running',
        steps: withStep(state, step.id, { status, endedAt: event.at, note }),
      });
      if (event.type === 'expired' || lapsed) {
        const expired = finish(
          close('failed', 'expired'),
          'refused',
          'the approval request expired',
          event.at,
        );
        // A click after the expiry ends the run as expired and tells the clicker so.
        return event.type === 'expired'
          ? expired
          : { ...expired, refused: 'the approval request has expired' };
      }
      const decision = event.type === 'approved' ? 'approved' : 'rejected';
      const approvals = [
        ...state.approvals,
        {
          decision,
          by: event.by,
          at: event.at,
          ...(state.planHash === undefined ? {} : { planHash: state.planHash }),
          ...(event.type === 'rejected' && event.reason !== undefined
            ? { reason: event.reason }
            : {}),
        } as const,
      ];
      if (event.type === 'rejected') {
        return finish(
          { ...close('failed', 'rejected'), approvals },
          'refused',
          `rejected${event.reason === undefined ? '' : `: ${event.reason}`}`,
          event.at,
        );
      }
      if (
        event.planHash !== undefined &&
        state.planHash !== undefined &&
        event.planHash !== state.planHash
      ) {
        const changed = finish(
          close('failed', 'plan changed'),
          'refused',
          `the cluster changed since the request (plan ${state.planHash} is now ${event.planHash}); request again`,
          event.at,
        );
        return { ...changed, refused: 'the plan changed since the request' };
      }
      const approved: RunState = { ...close('done', 'approved'), approvals };
      const { expiresAt: _e, ...open } = approved;
      return enter(runbook, open, state.stepIndex + 1, event.at);
    }
    case 'resumed': {
      const history = [...state.history, { at: event.at, event: 'resumed', note: event.reason }];
      if (state.phase === 'awaiting-approval') {
        if (state.expiresAt !== undefined && Date.parse(event.at) >= Date.parse(state.expiresAt)) {
          return finish({ ...state, history }, 'refused', 'the approval request expired', event.at);
        }
        // A process killed between saving the wait and posting the approval card leaves a
        // Slack run nobody can approve: ask again (the card is posted once, by its ts).
        const unasked =
          state.options.channel !== undefined && typeof state.facts['approvalTs'] !== 'string';
        return {
          state: { ...state, history, updatedAt: event.at },
          effects: [
            { type: 'schedule-expiry', at: state.expiresAt ?? event.at },
            ...(unasked && state.expiresAt !== undefined
              ? [{ type: 'request-approval', expiresAt: state.expiresAt } as const]
              : []),
          ],
        };
      }
      const step = currentStep(runbook, state);
      if (step === undefined)
        return enter(runbook, { ...state, history }, state.stepIndex, event.at);
      return {
        state: {
          ...state,
          history,
          updatedAt: event.at,
          steps: state.steps.map((s) =>
            s.track === state.track && s.id === step.id && s.status === 'running'
              ? { ...s, status: 'pending' }
              : s,
          ),
        },
        effects: [{ type: 'execute', stepId: step.id }],
      };
    }
    case 'lock-lost': {
      if (!inMotion(state)) return refuse(state, `the run is ${state.phase}`);
      const who = event.holder === undefined ? '' : ` (now held by ${event.holder})`;
      const lost: RunState = {
        ...state,
        history: [
          ...state.history,
          { at: event.at, event: 'lock-lost', note: `held by ${event.holder ?? 'nobody'}` },
        ],
      };
      return finish(
        lost,
        hasWritten(state) ? 'needs-attention' : 'refused',
        `the cluster lock was lost${who}; stopped before the next write`,
        event.at,
      );
    }
    case 'cancelled': {
      if (state.phase === 'rolling-back')
        return refuse(state, 'the run is rolling back; it cannot be cancelled now');
      const note = { at: event.at, event: 'cancelled', note: event.reason };
      const cancelled: RunState = { ...state, history: [...state.history, note] };
      if (state.phase === 'awaiting-approval' || !hasWritten(state)) {
        return finish(
          { ...cancelled, phase: 'running' },
          'refused',
          `cancelled: ${event.reason}`,
          event.at,
        );
      }
      return failed(
        runbook,
        cancelled,
        { kind: 'error', message: `cancelled: ${event.reason}`, retryable: false },
        event.at,
      );
    }
  }
}

/** A new run, before its first step: every step of both tracks recorded as pending. */
export function newRun(
  runbook: Runbook,
  init: Pick<RunState, 'id' | 'cluster' | 'requester' | 'options'> & {
    node?: string;
    at: string;
    facts?: Record<string, unknown>;
  },
): TransitionResult {
  const steps: StepRecord[] = [
    ...runbook.steps.map((s) => ({
      id: s.id,
      track: 'forward' as const,
      status: 'pending' as const,
      attempts: 0,
    })),
    ...runbook.rollback.map((s) => ({
      id: s.id,
      track: 'rollback' as const,
      status: 'pending' as const,
      attempts: 0,
    })),
  ];
  const state: RunState = {
    id: init.id,
    kind: runbook.kind,
    cluster: init.cluster,
    ...(init.node === undefined ? {} : { node: init.node }),
    requester: init.requester,
    options: init.options,
    phase: 'running',
    track: 'forward',
    stepIndex: 0,
    steps,
    approvals: [],
    journal: [],
    evidence: [],
    facts: init.facts ?? {},
    createdAt: init.at,
    updatedAt: init.at,
    history: [],
    version: 0,
  };
  return enter(runbook, state, 0, init.at);
}

/**
 * The run engine: callers start runs and signal them (as in Temporal); the scheduler asks it to
 * advance a run by one step. Every change goes load → transition() → save (compare-and-set on
 * the version) → effects, so a crash between any two lines leaves a state another process can
 * resume from, and two processes can never both act on the same state.
 */
import { isHousekeeping, type ClusterAction } from '../core/actions.js';
import { describe as describeAction } from '../core/action-describe.js';
import { currentStep, newRun, stepRecord, transition, type TransitionResult } from '../core/run.js';
import type { Effect, RunEvent } from '../core/run-events.js';
import type { Actor, RunOptions, RunState } from '../core/run-state.js';
import type { Runbook, RunKind } from '../core/runbook.js';
import { asAppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Clock } from '../ports/clock.js';
import type { ApplyOptions, ApplyResult } from '../ports/cluster.js';
import { StaleRunError, type RunStore } from '../ports/run-store.js';
import type { RunObserver } from './observer.js';
import type { RunEnvironment } from './run-environment.js';
import { OWNER_TTL_MS, ownerGone } from './owner.js';
import type { StepContext, StepExecutor, StepOutcome } from './step-context.js';
import { whileRedisDown } from './while-redis-down.js';

/** How effects that happen later reach the engine: BullMQ jobs, or timers in this process. */
export interface StepScheduler {
  /** Ask for `advance(runId, stepId)`, after `delayMs`. Idempotent per (run, step, version). */
  execute(runId: string, stepId: string, version: number, delayMs: number): Promise<void>;
  /** Deliver `event` to `signal(runId, …)` at `at` (approval expiry). */
  signalAt(runId: string, event: RunEvent, at: Date): Promise<void>;
}

export interface StartRequest {
  id: string;
  kind: RunKind;
  cluster: string;
  node?: string;
  requester: Actor;
  options: RunOptions;
  facts?: Record<string, unknown>;
}

export interface SignalResult {
  state: RunState;
  /**
   * Why the event did not do what it asked: with `saved` false it changed nothing (a double
   * click, a finished run); with `saved` true it ended the run instead (an approval after the
   * expiry, or of a plan that changed).
   */
  refused?: string;
  /** Whether this event's transition was saved. */
  saved: boolean;
}

export interface EngineOptions {
  store: RunStore;
  scheduler: StepScheduler;
  runbooks: Readonly<Record<RunKind, Runbook>>;
  executors: ReadonlyMap<string, StepExecutor>;
  environment: RunEnvironment;
  observers: readonly RunObserver[];
  clock: Clock;
  logger: Logger;
  /** This process, as `host#boot:pid` (owner.ts). */
  owner: string;
}

/**
 * Writers that lost a save race reload and try again, after a short random pause: without it,
 * a dozen people clicking one card at once (each refused click is recorded on the run) retry in
 * lockstep, and some ran out of attempts, losing their refusal from the record.
 */
const MAX_STALE_RETRIES = 16;
const STALE_BACKOFF_MS = 5;
const STALE_BACKOFF_MAX_MS = 100;

/** Full jitter: anywhere up to the doubled step, so racing writers spread out. */
export function staleBackoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(STALE_BACKOFF_MAX_MS, STALE_BACKOFF_MS * 2 ** attempt));
}

/** A fact set once every observer was told how the run ended. */
export const ANNOUNCED = 'announced';
/** Finished runs younger than this that nobody announced are announced on start. */
const ANNOUNCE_WINDOW_MS = 60 * 60_000;
/** How long a live process may take to announce a run it just ended (Slack retries included). */
const ANNOUNCE_SETTLE_MS = 20_000;

function inMotion(state: RunState): boolean {
  return state.phase === 'running' || state.phase === 'rolling-back';
}

export interface ResumeOptions {
  /**
   * Announce finished runs nobody announced (the process that talks to their Slack channel);
   * a terminal, which has no Slack, must not mark them announced.
   */
  announce?: boolean;
}

export function executorKey(kind: string, uses: string): string {
  return `${kind}:${uses}`;
}

export class RunEngine {
  private readonly stopping = new AbortController();
  /** Steps this process is executing now, as `runId/stepId`. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly o: EngineOptions) {}

  private now(): string {
    return this.o.clock.now().toISOString();
  }

  private runbook(state: Pick<RunState, 'kind'>): Runbook {
    return this.o.runbooks[state.kind];
  }

  /** Creates the run and performs its first effects; resolves to the saved state. */
  async start(request: StartRequest): Promise<RunState> {
    const runbook = this.o.runbooks[request.kind];
    const result = newRun(runbook, { ...request, at: this.now() });
    const saved = await this.o.store.create(result.state);
    this.o.logger.info(
      { runId: saved.id, kind: saved.kind, cluster: saved.cluster, node: saved.node },
      'run started',
    );
    await this.afterSave(saved, result.effects);
    return saved;
  }

  /** Delivers an event from outside (a click, a timer, a restart); refused events change nothing. */
  async signal(runId: string, event: RunEvent): Promise<SignalResult> {
    return this.commit(runId, () => event);
  }

  /**
   * Sets `facts[key]` unless the run already has it, atomically against the run's version: of
   * two racing callers (a double click, two processes) exactly one wins. Resolves to the value
   * the run holds afterwards and whether it was this call's.
   */
  async claim(
    runId: string,
    key: string,
    value: unknown,
  ): Promise<{ won: boolean; value: unknown; state: RunState }> {
    const result = await this.commit(runId, (state) =>
      state.facts[key] === undefined
        ? { type: 'recorded', at: this.now(), facts: { [key]: value } }
        : undefined,
    );
    const held = result.state.facts[key];
    return {
      won: result.refused === undefined && held === value,
      value: held,
      state: result.state,
    };
  }

  /**
   * Loads, transitions and saves, reloading when another writer saved first. `make` builds the
   * event from the fresh state, or returns undefined when there is nothing left to do.
   */
  private async commit(
    runId: string,
    make: (state: RunState) => RunEvent | undefined,
  ): Promise<SignalResult> {
    for (let attempt = 0; ; attempt += 1) {
      const state = await this.o.store.get(runId);
      if (state === undefined) throw new Error(`no run ${runId}`);
      const event = make(state);
      if (event === undefined) return { state, refused: 'nothing to do', saved: false };
      const result: TransitionResult = transition(this.runbook(state), state, event);
      if (result.refused !== undefined && result.state === state) {
        return { state, refused: result.refused, saved: false };
      }
      try {
        const saved = await this.o.store.save(result.state);
        await this.afterSave(saved, result.effects);
        return {
          state: saved,
          saved: true,
          ...(result.refused === undefined ? {} : { refused: result.refused }),
        };
      } catch (error) {
        if (!(error instanceof StaleRunError) || attempt >= MAX_STALE_RETRIES) throw error;
        await new Promise((resolve) => setTimeout(resolve, staleBackoffMs(attempt)));
      }
    }
  }

  private async afterSave(state: RunState, effects: readonly Effect[]): Promise<void> {
    await this.tell(state, (o) => o.changed(state));
    for (const effect of effects) {
      switch (effect.type) {
        case 'execute':
          // The state is saved: its step must get a job even if Redis blinked since (job ids
          // carry the version, so asking again adds one job).
          await whileRedisDown(() =>
            this.o.scheduler.execute(state.id, effect.stepId, state.version, effect.delayMs ?? 0),
          );
          break;
        case 'request-approval':
          // Nobody knows how long a person takes: no probe pod waits with the run.
          await this.o.environment.pause(state);
          await this.tell(state, (o) => o.approvalRequested(state));
          break;
        case 'schedule-expiry':
          await whileRedisDown(() =>
            this.o.scheduler.signalAt(
              state.id,
              { type: 'expired', at: effect.at },
              new Date(effect.at),
            ),
          );
          break;
        case 'finished':
          this.o.logger.info(
            { runId: state.id, outcome: state.outcome, reason: state.reason },
            'run finished',
          );
          await this.o.environment.release(state);
          await this.announce(state);
          break;
      }
    }
  }

  /** Tells every observer; resolves to whether all of them managed. */
  private async tell(state: RunState, call: (o: RunObserver) => Promise<void>): Promise<boolean> {
    let all = true;
    for (const observer of this.o.observers) {
      try {
        await call(observer);
      } catch (error) {
        all = false;
        this.o.logger.warn({ err: error, runId: state.id }, 'a run observer failed');
      }
    }
    return all;
  }

  /**
   * Tells people how the run ended, then marks it `announced`. A process killed in between
   * leaves a finished run without the mark, which its successor announces again on start (the
   * observers skip what they already posted: the result's ts is on the run).
   */
  private async announce(state: RunState): Promise<void> {
    if (!(await this.tell(state, (o) => o.finished(state)))) return;
    await this.commit(state.id, (s) =>
      s.facts[ANNOUNCED] === true
        ? undefined
        : { type: 'recorded', at: this.now(), facts: { [ANNOUNCED]: true } },
    ).catch((error: unknown) =>
      this.o.logger.warn({ err: error, runId: state.id }, 'could not mark the run as announced'),
    );
  }

  /** Runs one step of a run (the scheduler's job). A stale request (the run moved on) does nothing. */
  async advance(runId: string, stepId: string): Promise<void> {
    const key = `${runId}/${stepId}`;
    const runningHere = this.inFlight.has(key);
    if (!runningHere) this.inFlight.add(key);
    try {
      // Read first: a job handed back after its worker died (a stalled job) finds its step still
      // `running` under an owner that is gone, and resumes the run instead of leaving it stuck.
      const gone = ownerGone(await this.o.store.owner(runId));
      const started = await this.commit(runId, (state) => {
        const step = currentStep(this.runbook(state), state);
        const record = step === undefined ? undefined : stepRecord(state, state.track, step.id);
        if (step?.id !== stepId) return undefined;
        if (state.phase !== 'running' && state.phase !== 'rolling-back') return undefined;
        if (record?.status === 'running' && gone && !runningHere) {
          return { type: 'resumed', at: this.now(), reason: 'its worker stopped during the step' };
        }
        if (record?.status !== 'pending') return undefined;
        return { type: 'step-started', stepId, at: this.now() };
      });
      if (started.refused !== undefined) {
        // The run ended but its process died before telling anyone: tell them now.
        if (gone && started.state.phase === 'done' && started.state.facts[ANNOUNCED] !== true)
          await this.endForDeadProcess(started.state);
        // A step attempt of this process that could not save its outcome (Redis went away):
        // retried by the job, it runs again.
        else if (!runningHere) await this.reclaim(runId, stepId, started.state);
        return;
      }
      // Resumed: the step runs again in its own job (the `execute` effect), not in this one.
      if (stepRecord(started.state, started.state.track, stepId)?.status !== 'running') return;
      await this.o.store.beat(runId, this.o.owner, OWNER_TTL_MS);
      const beating = setInterval(() => {
        this.o.store
          .beat(runId, this.o.owner, OWNER_TTL_MS)
          .catch((error: unknown) =>
            this.o.logger.warn({ err: error, runId }, 'could not mark the run as worked on'),
          );
      }, OWNER_TTL_MS / 3);
      try {
        await this.runStep(runId, started.state);
      } finally {
        clearInterval(beating);
      }
    } finally {
      if (!runningHere) this.inFlight.delete(key);
    }
  }

  /**
   * The job of a step that is marked running, delivered again: the attempt that started it ended
   * without saving its outcome (Redis went away mid-step, so the final save failed and BullMQ
   * retries the job). Unless the step is running here or its owner elsewhere is alive, the step
   * is resumed (it runs again, as after a crash) instead of being left running with no one on it.
   */
  private async reclaim(runId: string, stepId: string, state: RunState): Promise<void> {
    const abandoned = (s: RunState): boolean => {
      if (s.phase !== 'running' && s.phase !== 'rolling-back') return false;
      const step = currentStep(this.runbook(s), s);
      return step?.id === stepId && stepRecord(s, s.track, step.id)?.status === 'running';
    };
    if (!abandoned(state)) return;
    const owner = await this.o.store.owner(runId);
    if (owner !== undefined && owner !== this.o.owner && !ownerGone(owner)) return;
    const reason = 'a step attempt ended without saving its outcome; the step runs again';
    const result = await this.commit(runId, (s) =>
      abandoned(s) ? { type: 'resumed', at: this.now(), reason } : undefined,
    );
    if (result.saved) this.o.logger.warn({ runId, step: stepId }, `resumed: ${reason}`);
  }

  private async runStep(runId: string, startedState: RunState): Promise<void> {
    const started = { state: startedState };
    const runbook = this.runbook(started.state);
    const step = currentStep(runbook, started.state);
    if (step === undefined) return;
    const executor = this.o.executors.get(executorKey(step.kind, step.uses));
    let outcome: StepOutcome;
    let latest = started.state;
    const log = this.o.logger.child({
      runId,
      step: step.id,
      cluster: latest.cluster,
      node: latest.node,
    });
    if (executor === undefined) {
      outcome = {
        ok: false,
        failure: {
          kind: 'error',
          message: `no executor for ${step.kind} ${step.uses}`,
          retryable: false,
        },
      };
    } else {
      const env = await this.o.environment.forRun(latest);
      const ctx: StepContext = {
        runbook,
        step,
        state: () => latest,
        cluster: env.cluster,
        clusterConfig: env.clusterConfig,
        shell: () => env.shell(),
        lock: env.lock,
        chat: env.chat,
        actor: latest.options.preApproved ?? latest.approvals.at(-1)?.by ?? latest.requester,
        clock: this.o.clock,
        logger: log,
        signal: this.stopping.signal,
        progress: (progress) => {
          for (const observer of this.o.observers) {
            try {
              observer.progress?.(latest, progress);
            } catch (error) {
              log.debug({ err: error }, 'a run observer failed on progress');
            }
          }
        },
        previousRuns: async () =>
          (
            await this.o.store.list({
              cluster: latest.cluster,
              ...(latest.node === undefined ? {} : { node: latest.node }),
              limit: 20,
            })
          ).filter((r) => r.id !== runId),
        record: async (facts) => {
          // Steps record what they just did outside (a message's ts, replies posted): losing
          // that to a Redis restart would make the step's retry do it twice.
          const recorded = await whileRedisDown(() =>
            this.commit(runId, () => ({ type: 'recorded', at: this.now(), facts })),
          );
          latest = recorded.state;
        },
        apply: async (action, options) => {
          const result = await this.applyAction(runId, step.id, action, options, env, (s) => {
            latest = s;
          });
          return result;
        },
      };
      try {
        await env.beforeStep(latest, step);
        outcome = await executor(ctx);
      } catch (error) {
        const appError = asAppError(error);
        log.warn({ err: appError, code: appError.code }, 'step failed with an error');
        outcome = {
          ok: false,
          failure: {
            kind: 'error',
            message: appError.message,
            code: appError.code,
            remedy: appError.remedy,
            retryable: appError.retryable,
          },
        };
      }
    }
    // Stopping: leave the step marked running; whoever resumes the run runs it again.
    if (this.stopping.signal.aborted) return;
    const at = this.now();
    if (!outcome.ok && outcome.failure.code === 'LOCK_LOST') {
      await this.commit(runId, () => ({ type: 'lock-lost', at }));
      return;
    }
    const event: RunEvent = outcome.ok
      ? {
          type: 'step-completed',
          stepId: step.id,
          at,
          ...(outcome.note === undefined ? {} : { note: outcome.note }),
          ...(outcome.evidence === undefined ? {} : { evidence: outcome.evidence }),
          ...(outcome.facts === undefined ? {} : { facts: outcome.facts }),
          ...(outcome.plan === undefined ? {} : { plan: outcome.plan }),
        }
      : {
          type: 'step-failed',
          stepId: step.id,
          at,
          failure: outcome.failure,
          ...(outcome.evidence === undefined ? {} : { evidence: outcome.evidence }),
          ...(outcome.facts === undefined ? {} : { facts: outcome.facts }),
        };
    await this.commit(runId, () => event);
  }

  /** The journaled write: pending entry saved, lock checked, request sent, result saved. */
  private async applyAction(
    runId: string,
    stepId: string,
    action: ClusterAction,
    options: (ApplyOptions & { undoes?: number }) | undefined,
    env: Awaited<ReturnType<RunEnvironment['forRun']>>,
    onSaved: (state: RunState) => void,
  ): Promise<ApplyResult> {
    const log = this.o.logger.child({ runId, step: stepId });
    if (isHousekeeping(action) || options?.dryRun === true) {
      log.debug({ action: action.kind, dryRun: options?.dryRun === true }, describeAction(action));
      return env.cluster.apply(action, options?.dryRun === true ? { dryRun: true } : {});
    }
    await env.assertLockHeld();
    const pending = await this.commit(runId, () => ({
      type: 'action-started',
      stepId,
      at: this.now(),
      action,
      ...(options?.undoes === undefined ? {} : { undoes: options.undoes }),
    }));
    if (pending.refused !== undefined)
      throw new Error(`cannot journal ${action.kind}: ${pending.refused}`);
    onSaved(pending.state);
    const seq = pending.state.journal.at(-1)?.seq ?? 0;
    try {
      const result = await env.cluster.apply(action);
      log.info({ action: action.kind, status: result.status, seq }, describeAction(action));
      onSaved(
        (
          await this.commit(runId, () => ({
            type: 'action-finished',
            seq,
            at: this.now(),
            status: result.status,
          }))
        ).state,
      );
      return result;
    } catch (error) {
      const appError = asAppError(error);
      onSaved(
        (
          await this.commit(runId, () => ({
            type: 'action-finished',
            seq,
            at: this.now(),
            status: 'failed',
            error: appError.message,
          }))
        ).state,
      );
      throw error;
    }
  }

  /**
   * On start: every unfinished run this process can serve is resumed (its current step runs
   * again, which is safe because every step reads what the cluster already has first). A run
   * whose owner still looked alive (another host: its heartbeat has not expired yet) is looked
   * at again once the heartbeat would have expired, so a replica that died is not waited for
   * until BullMQ's stall check. Runs that ended without being announced are announced, and
   * probe pods of runs not in motion are deleted.
   */
  async resume(
    reason: string,
    filter: (state: RunState) => boolean = () => true,
    options: ResumeOptions = {},
  ): Promise<RunState[]> {
    const active = (await this.o.store.list({ active: true, limit: 1_000 })).filter(filter);
    const resumed: RunState[] = [];
    const waiting: string[] = [];
    for (const state of active) {
      // Someone alive is working on it (another replica, a terminal): leave it to them.
      if (!ownerGone(await this.o.store.owner(state.id))) {
        waiting.push(state.id);
        continue;
      }
      const result = await this.signal(state.id, { type: 'resumed', at: this.now(), reason });
      if (result.refused === undefined) resumed.push(result.state);
    }
    if (waiting.length > 0 && !this.stopping.signal.aborted) {
      const timer = setTimeout(() => {
        this.resume(reason, (s) => waiting.includes(s.id) && filter(s), {}).catch(
          (error: unknown) => this.o.logger.warn({ err: error }, 'could not look at runs again'),
        );
      }, OWNER_TTL_MS + 1_000);
      timer.unref();
      this.stopping.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    }
    // In the background: a slow Slack or an unreachable cluster must not hold the start up.
    if (options.announce === true) {
      this.announceEnded(filter).catch((error: unknown) =>
        this.o.logger.warn({ err: error }, 'could not announce ended runs'),
      );
    }
    // A pod of a run this store does not know is left alone (another store's run, or a
    // terminal's); the shells themselves remove any that outlived their lifetime.
    this.o.environment
      .collect(async (runId) => {
        const state = await this.o.store.get(runId);
        return state === undefined || inMotion(state);
      })
      .catch((error: unknown) =>
        this.o.logger.warn({ err: error }, 'could not collect left-over probe pods'),
      );
    return resumed;
  }

  /** Finished runs whose process died before it told anyone how they ended. */
  private async announceEnded(filter: (state: RunState) => boolean): Promise<void> {
    const since = this.o.clock.now().getTime() - ANNOUNCE_WINDOW_MS;
    const recent = (await this.o.store.list({ limit: 200 })).filter(
      (s) =>
        s.phase === 'done' &&
        s.facts[ANNOUNCED] !== true &&
        Date.parse(s.updatedAt) >= since &&
        filter(s),
    );
    const now = this.o.clock.now().getTime();
    // A run that ended just now may be being announced by a live process (a click ended it, so
    // no heartbeat says so): look at it again once that would be over, so nothing posts twice.
    const fresh = recent.filter((s) => now - Date.parse(s.updatedAt) < ANNOUNCE_SETTLE_MS);
    for (const state of recent.filter((s) => !fresh.includes(s))) {
      if (!ownerGone(await this.o.store.owner(state.id))) continue;
      await this.endForDeadProcess(state);
    }
    if (fresh.length === 0 || this.stopping.signal.aborted) return;
    const timer = setTimeout(() => {
      const ids = new Set(fresh.map((s) => s.id));
      this.announceEnded((s) => ids.has(s.id) && filter(s)).catch((error: unknown) =>
        this.o.logger.warn({ err: error }, 'could not announce ended runs'),
      );
    }, ANNOUNCE_SETTLE_MS);
    timer.unref();
    this.stopping.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  }

  /**
   * What the `finished` effect does, for a run whose process was killed between saving the end
   * and doing it: the lock and the probe pods go (releasing twice is harmless), then people are
   * told. Without the release, the next run on the cluster would find the lock still held.
   */
  private async endForDeadProcess(state: RunState): Promise<void> {
    await this.o.environment.release(state);
    await this.announce(state);
  }

  /** Ends waits early: the steps in flight fail as retryable and are resumed elsewhere. */
  stop(): void {
    this.stopping.abort();
  }
}

/**
 * What a button or modal handler gets. Handlers read everything from the run and the
 * configuration; the button value names a run and nothing else is believed.
 */
import type { AppConfig } from '../config.js';
import type { Metrics } from '../adapters/metrics.js';
import type { GroupMembers } from '../adapters/slack/user-groups.js';
import type { RunEvent } from '../core/run-events.js';
import type { RunState } from '../core/run-state.js';
import type { RunRequest } from '../engine/runs.js';
import type { SignalResult } from '../engine/run-engine.js';
import type { Logger } from '../log.js';
import type { Clock } from '../ports/clock.js';
import type { Foreground } from '../ports/foreground.js';
import type { DriftStore } from '../ports/drift-store.js';

/** The engine as the handlers use it. */
export interface InteractionRuns {
  get(runId: string): Promise<RunState | undefined>;
  signal(runId: string, event: RunEvent): Promise<SignalResult>;
  start(request: RunRequest): Promise<string>;
  claim(
    runId: string,
    key: string,
    value: unknown,
  ): Promise<{ won: boolean; value: unknown; state: RunState }>;
}

export interface InteractionDeps {
  config: Pick<AppConfig, 'clusters'>;
  runs: InteractionRuns;
  /** The workspace the app is installed in (auth.test). */
  homeTeamId: string;
  groups: GroupMembers;
  /**
   * The cutover's plan hash computed now from the live cluster, to compare with the one the
   * request showed; `problem` when it cannot be computed (which never approves).
   */
  planHashNow(state: RunState): Promise<{ hash: string } | { problem: string }>;
  /** What the drift guard keeps (the repair button's drift); absent when the guard is off. */
  drifts?: DriftStore;
  clock: Clock;
  logger: Logger;
  /** Refused clicks by button and reason code; absent in tests that do not count them. */
  metrics?: Pick<Metrics, 'clickRefusals'>;
  /** The work after an ack waits for the other requests' acks (a burst answers first). */
  foreground?: Foreground;
}

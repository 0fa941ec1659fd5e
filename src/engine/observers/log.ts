/** Logs each run's moves as structured lines: what people grep when a run did something odd. */
import type { RunState } from '../../core/run-state.js';
import type { Logger } from '../../log.js';
import type { RunObserver } from '../observer.js';

export class LogRunObserver implements RunObserver {
  constructor(private readonly logger: Logger) {}

  changed(state: RunState): Promise<void> {
    this.logger.debug(
      {
        runId: state.id,
        phase: state.phase,
        track: state.track,
        step: state.stepIndex,
        version: state.version,
      },
      'run saved',
    );
    return Promise.resolve();
  }

  approvalRequested(state: RunState): Promise<void> {
    this.logger.info({ runId: state.id, expiresAt: state.expiresAt }, 'run waits for approval');
    return Promise.resolve();
  }

  finished(): Promise<void> {
    return Promise.resolve();
  }
}

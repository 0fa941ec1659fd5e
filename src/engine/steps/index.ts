/**
 * Every step executor, keyed by the step's kind and `uses` (runbooks name them; the engine looks
 * them up here). A new step is a file in this folder and a line below.
 */
import { executorKey } from '../run-engine.js';
import type { StepExecutor } from '../step-context.js';
import { gatherPreflight } from './preflight-report.js';
import { postPreflightThread } from './preflight-thread.js';
import { postStatusCard } from './status-card.js';

const entries: [kind: string, uses: string, executor: StepExecutor][] = [
  ['report', 'status-card', postStatusCard],
  ['capture', 'preflight-report', gatherPreflight],
  ['report', 'preflight-thread', postPreflightThread],
];

export const executors: ReadonlyMap<string, StepExecutor> = new Map(
  entries.map(([kind, uses, executor]) => [executorKey(kind, uses), executor]),
);

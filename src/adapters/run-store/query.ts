/** The RunQuery filter for stores that hold every run at hand (memory, files). */
import type { RunState } from '../../core/run-state.js';
import type { RunQuery } from '../../ports/run-store.js';

export function filterRuns(all: readonly RunState[], query: RunQuery): RunState[] {
  return all
    .filter((s) => query.cluster === undefined || s.cluster === query.cluster)
    .filter((s) => query.node === undefined || s.node === query.node)
    .filter((s) => query.active !== true || s.phase !== 'done')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, query.limit ?? 50);
}

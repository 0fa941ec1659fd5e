/**
 * The plan hash of a waiting run, computed again from the live cluster when someone clicks
 * Approve: the approval is refused when the cluster changed since people were shown the plan.
 * A rollback replays its cutover's journal and its revert step re-reads every node label
 * before writing, so its hash is the one planned (there is no live object set to recompute).
 */
import type { ClusterConfig } from '../config.js';
import type { RunState } from '../core/run-state.js';
import { asAppError } from '../errors.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import { computePlan } from './steps/canary-plan.js';

export async function planHashNow(
  state: RunState,
  clusters: readonly ClusterConfig[],
  directory: ClusterDirectory,
): Promise<{ hash: string } | { problem: string }> {
  if (state.kind !== 'cutover') {
    return state.planHash === undefined
      ? { problem: 'the run has no plan' }
      : { hash: state.planHash };
  }
  const config = clusters.find((c) => c.name === state.cluster);
  if (config === undefined) return { problem: `cluster ${state.cluster} is not configured` };
  const kernel = state.facts['nodeKernel'];
  try {
    const computed = await computePlan({
      cluster: directory.get(state.cluster),
      migrationLabel: config.migrationLabel,
      ...(state.node === undefined ? {} : { node: state.node }),
      ...(typeof kernel === 'string' ? { nodeKernel: kernel } : {}),
    });
    return 'problem' in computed ? { problem: computed.problem } : { hash: computed.hash };
  } catch (error) {
    return { problem: asAppError(error).message };
  }
}

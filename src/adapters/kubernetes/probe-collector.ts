/**
 * Probe pods whose run no longer needs them: a bot killed while a run probed (or while it ended,
 * or before its pods went when the run started waiting for a person) leaves pods with host
 * network and NET_ADMIN behind. On start, every pod whose run the caller does not keep is
 * deleted, through the cluster's one write path.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import type { ClusterAction } from '../../core/actions.js';
import type { ApplyResult } from '../../ports/cluster.js';
import { DEFAULT_REQUEST_TIMEOUT_MS, withRequestDeadline } from './deadline.js';
import { kubeError } from './errors.js';
import { PROBE_LABEL, PROBE_RUN_LABEL } from './probe-pod.js';
import { withRetry } from './retry.js';

export interface CollectOptions {
  cluster: string;
  namespace: string;
  apply(action: ClusterAction): Promise<ApplyResult>;
  /** Whether the run still needs its pods; asked once per run. */
  keep(runId: string): Promise<boolean>;
}

export async function collectProbePods(kc: KubeConfig, options: CollectOptions): Promise<number> {
  const core = kc.makeApiClient(CoreV1Api);
  const { namespace } = options;
  const list = await withRetry(
    () =>
      core.listNamespacedPod(
        { namespace, labelSelector: `${PROBE_LABEL}=true` },
        withRequestDeadline(DEFAULT_REQUEST_TIMEOUT_MS),
      ),
    { write: false },
  ).catch((error: unknown) => {
    throw kubeError(error, options.cluster, `list probe pods in ${namespace}`);
  });
  const kept = new Map<string, boolean>();
  let deleted = 0;
  for (const pod of list.items) {
    const meta = pod.metadata;
    // Pods made before the run label existed say their run in an annotation.
    const runId = meta?.labels?.[PROBE_RUN_LABEL] ?? meta?.annotations?.['proxy-migrate.io/run'];
    if (runId === undefined || meta?.name === undefined || meta.deletionTimestamp !== undefined)
      continue;
    let keep = kept.get(runId);
    if (keep === undefined) {
      keep = await options.keep(runId);
      kept.set(runId, keep);
    }
    if (keep) continue;
    await options.apply({
      kind: 'delete-probe-pod',
      ref: { namespace, name: meta.name },
      node: pod.spec?.nodeName ?? '',
    });
    deleted += 1;
  }
  return deleted;
}

/**
 * The fleet probe: one DaemonSet whose pods are the probe pods of many nodes at once, started by
 * the DaemonSet controller in one go instead of one create and one wait per node. The pod is the
 * single probe pod's (probe-pod.ts) minus what a DaemonSet may not have: no nodeName (the
 * controller pins each pod with node affinity), restartPolicy Always and no activeDeadlineSeconds
 * (the API rejects both in a DaemonSet). So nothing ends it by itself: the run deletes it when it
 * ends, on failure and abort too, and it carries the run id so the next run removes one a crashed
 * run left behind (isStaleProbeDaemonSet).
 */
import { createHash } from 'node:crypto';
import type { V1DaemonSet } from '@kubernetes/client-node';
import { probePodManifest, PROBE_LABEL, PROBE_LIFETIME_SECONDS } from './probe-pod.js';

/** The run that owns a probe DaemonSet and its pods, as a label value (selectable with kubectl). */
export const PROBE_RUN_LABEL = 'proxy-migrate.io/probe-run';
export const PROBE_RUN_ANNOTATION = 'proxy-migrate.io/run';

/** A run id as a label value: kept when valid (≤ 63 characters), else a hash of it. */
export function runLabelValue(runId: string): string {
  return /^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/.test(runId)
    ? runId
    : `h-${createHash('sha256').update(runId).digest('hex').slice(0, 20)}`;
}

export interface ProbeDaemonSetInput {
  name: string;
  namespace: string;
  image: string;
  runId: string;
  /** The nodes to run on; null: every node. */
  nodes: readonly string[] | null;
}

export function probeDaemonSetManifest(input: ProbeDaemonSetInput): V1DaemonSet {
  const pod = probePodManifest({ ...input, node: '' });
  const run = runLabelValue(input.runId);
  const selector = { [PROBE_RUN_LABEL]: run, 'proxy-migrate.io/probe-set': input.name };
  const {
    nodeName: _node,
    activeDeadlineSeconds: _deadline,
    ...podSpec
  } = pod.spec ?? {
    containers: [],
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: { ...pod.metadata?.labels, [PROBE_RUN_LABEL]: run },
      annotations: { [PROBE_RUN_ANNOTATION]: input.runId },
    },
    spec: {
      selector: { matchLabels: selector },
      // Every pod at once: a probe set has nothing to roll.
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '100%' } },
      template: {
        metadata: {
          labels: { ...pod.metadata?.labels, ...selector },
          annotations: { [PROBE_RUN_ANNOTATION]: input.runId },
        },
        spec: {
          ...podSpec,
          restartPolicy: 'Always',
          ...(input.nodes === null
            ? {}
            : {
                // One term per node (terms are ORed): the API allows a single value for a
                // matchFields In, as the DaemonSet controller's own pins have.
                affinity: {
                  nodeAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: {
                      nodeSelectorTerms: input.nodes.map((node) => ({
                        matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }],
                      })),
                    },
                  },
                },
              }),
        },
      },
    },
  };
}

/**
 * A probe DaemonSet another run left: older than a probe pod's lifetime (a fleet probe lasts
 * minutes), so its run crashed or was killed before it could delete it.
 */
export function isStaleProbeDaemonSet(
  meta: { labels?: Record<string, string>; creationTimestamp?: Date | string },
  runId: string,
  nowMs: number,
): boolean {
  if (meta.labels?.[PROBE_LABEL] !== 'true') return false;
  if (meta.labels[PROBE_RUN_LABEL] === runLabelValue(runId)) return false;
  const created =
    meta.creationTimestamp === undefined ? nowMs : new Date(meta.creationTimestamp).getTime();
  return nowMs - created > PROBE_LIFETIME_SECONDS * 1000;
}

// The pod the DaemonSet controller creates for one node: the template with the daemon
// tolerations, the revision labels, a controller owner reference, and the required node affinity
// replaced by `matchFields metadata.name In [node]` (ReplaceDaemonSetPodNodeNameNodeAffinity).

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asRecord, cloneJson, isJsonObject } from '../../apimachinery/types.js';
import type { Revision } from './spec.js';
import {
  ownerReference,
  revisionHashLabel,
  spec as specOf,
  templateGenerationLabel,
} from '../kube.js';
import { withDaemonTolerations } from '../scheduler/taints.js';

/** Pins a pod to one node the way the controller does: the required terms are replaced. */
export function replaceNodeNameAffinity(affinity: unknown, node: string): JsonObject {
  const term: JsonObject = {
    matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }],
  };
  const out: JsonObject = isJsonObject(affinity) ? cloneJson(affinity) : {};
  const nodeAffinity = asRecord(out['nodeAffinity']);
  const required = nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution'];
  nodeAffinity['requiredDuringSchedulingIgnoredDuringExecution'] = isJsonObject(required)
    ? { ...required, nodeSelectorTerms: [term] }
    : { nodeSelectorTerms: [term] };
  out['nodeAffinity'] = nodeAffinity;
  return out;
}

export interface DaemonPodInput {
  ds: KubeObject;
  node: string;
  name: string;
  revision: Revision;
}

export function newDaemonPod({ ds, node, name, revision }: DaemonPodInput): KubeObject {
  const template = asRecord(specOf(ds)['template']);
  const templateMeta = asRecord(template['metadata']);
  const podSpec = cloneJson(asRecord(template['spec']));
  podSpec['tolerations'] = withDaemonTolerations(podSpec);
  podSpec['affinity'] = replaceNodeNameAffinity(podSpec['affinity'], node);
  // The real controller leaves binding to the scheduler; the twin binds at once.
  podSpec['nodeName'] = node;
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(asRecord(templateMeta['labels'])))
    if (typeof v === 'string') labels[k] = v;
  labels[revisionHashLabel] = revision.hash;
  if (revision.generation !== undefined) labels[templateGenerationLabel] = revision.generation;
  const metadata: KubeObject['metadata'] = {
    name,
    generateName: `${ds.metadata.name ?? ''}-`,
    namespace: ds.metadata.namespace ?? 'default',
    labels,
    ownerReferences: [ownerReference(ds)],
  };
  const annotations = templateMeta['annotations'];
  if (isJsonObject(annotations) && Object.keys(annotations).length > 0)
    metadata.annotations = cloneJson(annotations) as Record<string, string>;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: podSpec };
}

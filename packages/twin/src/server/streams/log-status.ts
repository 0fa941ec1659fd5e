// What the kubelet answers a pods/log request with before any line is read: its refusals
// (validateContainerLogStatus, pkg/kubelet/kubelet_pods.go, relayed by the apiserver as 400) and
// the URL the apiserver asks it (LogLocation, pkg/registry/core/pod/strategy.go).

import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString } from '../../apimachinery/types.js';
import { encodeValues, kubeletURL } from './kubelet.js';

/** The pods/log options, parsed. */
export interface LogQuery {
  container: string | null;
  sinceSeconds: number | undefined;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines: number | undefined;
  limitBytes: number | undefined;
  sinceMs: number | undefined;
}

/**
 * The kubelet's validateContainerLogStatus (pkg/kubelet/kubelet_pods.go) on the pod's status:
 * the error it returns (relayed as 400), or undefined when there is a log to read.
 */
export function containerLogError(
  pod: KubeObject,
  container: string,
  previous: boolean,
): string | undefined {
  const podName = pod.metadata.name ?? '';
  const status = asRecord(pod['status']);
  const statuses = [
    ...asArray(status['containerStatuses']),
    ...asArray(status['initContainerStatuses']),
    ...asArray(status['ephemeralContainerStatuses']),
  ].map(asRecord);
  const own = statuses.find((c) => c['name'] === container);
  const subject = `container "${container}" in pod "${podName}"`;
  // A scenario pod is Running by contract even when it lists no container statuses.
  const bare = statuses.length === 0 && status['phase'] === 'Running';
  if (!own && !bare) return `${subject} is not available`;
  const last = asRecord(asRecord(own?.['lastState'])['terminated']);
  const lastId = asString(last['containerID']);
  const state = asRecord(own?.['state']);
  if (previous) return lastId === '' ? `previous terminated ${subject} not found` : undefined;
  if (bare || state['running'] !== undefined) return undefined;
  if (state['terminated'] !== undefined) {
    const id = asString(asRecord(state['terminated'])['containerID']);
    return id === '' && lastId === '' ? `${subject} is terminated` : undefined;
  }
  if (asRecord(own?.['lastState'])['terminated'] !== undefined)
    return lastId === '' ? `${subject} is terminated` : undefined;
  const waiting = asRecord(state['waiting']);
  if (state['waiting'] === undefined) return `${subject} is waiting to start - no logs yet`;
  const reason = asString(waiting['reason']);
  if (reason === 'ErrImagePull') return `${subject} is waiting to start: image can't be pulled`;
  if (reason === 'ImagePullBackOff')
    return `${subject} is waiting to start: trying and failing to pull image`;
  return `${subject} is waiting to start: ${reason}`;
}

/** The kubelet URL LogLocation builds (sorted url.Values), for the dial error's message. */
export function logURL(host: string, pod: KubeObject, container: string, q: LogQuery): string {
  const values: [string, string][] = [];
  if (q.follow) values.push(['follow', 'true']);
  if (q.previous) values.push(['previous', 'true']);
  if (q.timestamps) values.push(['timestamps', 'true']);
  if (q.sinceSeconds !== undefined) values.push(['sinceSeconds', String(q.sinceSeconds)]);
  if (q.sinceMs !== undefined && q.sinceSeconds === undefined)
    values.push(['sinceTime', new Date(q.sinceMs).toISOString().replace(/\.\d{3}Z$/, 'Z')]);
  if (q.tailLines !== undefined) values.push(['tailLines', String(q.tailLines)]);
  if (q.limitBytes !== undefined) values.push(['limitBytes', String(q.limitBytes)]);
  const path = `/containerLogs/${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}/${container}`;
  return kubeletURL(host, path, encodeValues(values));
}

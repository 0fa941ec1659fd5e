// The `message` of a terminated container's state, as the kubelet fills it
// (pkg/kubelet/kuberuntime/kuberuntime_container.go getTerminationMessage and
// readLastStringFromContainerLogs): what the container wrote to its terminationMessagePath, at
// most 4096 bytes; with terminationMessagePolicy FallbackToLogsOnError and a non-zero exit, when
// it wrote nothing, the last 80 lines of its log, at most their last 2048 bytes. A container that
// writes no termination message under the default policy (File) gets none.

import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';

const maxMessageBytes = 4096;
const maxLogLines = 80;
const maxLogBytes = 2048;

/** The last `max` bytes of `text` (the kubelet's circular buffer keeps the end). */
function lastBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= max ? text : bytes.subarray(bytes.length - max).toString('utf8');
}

export function terminationMessage(
  pod: KubeObject,
  exitCode: number,
  written: string | undefined,
  logs: readonly string[] | undefined,
): string | undefined {
  if (written !== undefined && written !== '') return lastBytes(written, maxMessageBytes);
  // The twin's containers share one fate; the first container's policy speaks for the pod.
  const first = asArray(asRecord(pod['spec'])['containers']).find(isJsonObject);
  const policy = asString(first?.['terminationMessagePolicy']) || 'File';
  if (policy !== 'FallbackToLogsOnError' || exitCode === 0 || !logs || logs.length === 0)
    return undefined;
  const tail = logs
    .slice(-maxLogLines)
    .map((line) => `${line}\n`)
    .join('');
  return lastBytes(tail, maxLogBytes);
}

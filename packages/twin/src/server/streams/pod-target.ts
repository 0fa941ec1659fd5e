// The pod and container a log or exec request names, checked with the apiserver's own messages
// (pkg/registry/core/pod/strategy.go) before anything is streamed.

import { badRequest, notFound } from '../../apimachinery/errors.js';
import { resourceFor } from '../../registry/resources.js';
import type { ObjectStore } from '../../store/store.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString } from '../../apimachinery/types.js';

function names(pod: KubeObject, field: string): string[] {
  return asArray(asRecord(pod['spec'])[field]).map((c) => asString(asRecord(c)['name']));
}

export function podPhase(pod: KubeObject): string {
  return asString(asRecord(pod['status'])['phase']);
}

export function podNodeName(pod: KubeObject): string {
  return asString(asRecord(pod['spec'])['nodeName']);
}

export function findPod(
  store: ObjectStore,
  namespace: string | undefined,
  name: string,
): KubeObject {
  const pod = store.get(resourceFor('pods'), namespace, name);
  if (!pod) throw notFound({ resource: 'pods', group: '', name });
  return pod;
}

/**
 * The container to use: the requested one if the pod has it (init and ephemeral containers
 * count), else the only container, else the apiserver's "must be specified" error.
 */
export function resolveContainer(pod: KubeObject, requested: string | null): string {
  const podName = pod.metadata.name ?? '';
  const containers = names(pod, 'containers');
  if (requested !== null && requested !== '') {
    const all = [
      ...containers,
      ...names(pod, 'initContainers'),
      ...names(pod, 'ephemeralContainers'),
    ];
    if (!all.includes(requested))
      throw badRequest(`container ${requested} is not valid for pod ${podName}`);
    return requested;
  }
  const [only, ...more] = containers;
  if (only === undefined) throw badRequest(`a container name must be specified for pod ${podName}`);
  if (more.length === 0) return only;
  let message = `a container name must be specified for pod ${podName}, choose one of: [${containers.join(' ')}]`;
  const init = names(pod, 'initContainers');
  if (init.length > 0) message += ` or one of the init containers: [${init.join(' ')}]`;
  throw badRequest(message);
}

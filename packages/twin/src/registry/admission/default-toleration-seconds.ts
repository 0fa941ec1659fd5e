// The DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds),
// on by default in kube-apiserver: on pod create and update (not subresources), a pod that does
// not already tolerate node.kubernetes.io/not-ready or /unreachable with NoExecute gets a
// toleration for it bounded to 300 s, so taint-based eviction removes it 5 minutes after its
// node goes NotReady or unreachable.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asString, isJsonObject } from '../../apimachinery/types.js';

/** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
export const defaultTolerationSeconds = 300;

const keys = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'] as const;

export function admitDefaultTolerationSeconds(pod: KubeObject): void {
  if (pod.kind !== 'Pod') return;
  const spec = isJsonObject(pod['spec']) ? pod['spec'] : {};
  const tolerations = asArray(spec['tolerations']).filter(isJsonObject);
  // An empty key or effect tolerates every key or effect.
  const tolerated = (key: string): boolean =>
    tolerations.some((t) => {
      const k = asString(t['key']);
      const effect = asString(t['effect']);
      return (k === key || k === '') && (effect === 'NoExecute' || effect === '');
    });
  const added: JsonObject[] = keys
    .filter((key) => !tolerated(key))
    .map((key) => ({
      key,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: defaultTolerationSeconds,
    }));
  if (added.length === 0) return;
  spec['tolerations'] = [...tolerations, ...added];
  pod['spec'] = spec;
}

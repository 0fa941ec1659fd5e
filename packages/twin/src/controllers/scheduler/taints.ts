// Taints and tolerations as the scheduler and the DaemonSet controller read them, plus the
// tolerations the DaemonSet controller adds to every daemon pod so that node problems and cordons
// never evict or block them.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asString, isJsonObject } from '../../apimachinery/types.js';

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export const taintKeys = {
  notReady: 'node.kubernetes.io/not-ready',
  unreachable: 'node.kubernetes.io/unreachable',
  diskPressure: 'node.kubernetes.io/disk-pressure',
  memoryPressure: 'node.kubernetes.io/memory-pressure',
  pidPressure: 'node.kubernetes.io/pid-pressure',
  unschedulable: 'node.kubernetes.io/unschedulable',
  networkUnavailable: 'node.kubernetes.io/network-unavailable',
} as const;

export function nodeTaints(node: KubeObject): JsonObject[] {
  const spec = node['spec'];
  return isJsonObject(spec) ? asArray(spec['taints']).filter(isJsonObject) : [];
}

export function podTolerations(podSpec: JsonObject): JsonObject[] {
  return asArray(podSpec['tolerations']).filter(isJsonObject);
}

/** v1.Toleration.ToleratesTaint: an empty effect or key matches any; Exists ignores the value. */
export function tolerates(toleration: JsonObject, taint: JsonObject): boolean {
  const effect = asString(toleration['effect']);
  if (effect !== '' && effect !== taint['effect']) return false;
  const key = asString(toleration['key']);
  if (key !== '' && key !== taint['key']) return false;
  const operator = asString(toleration['operator']);
  if (operator === 'Exists') return true;
  if (operator === '' || operator === 'Equal')
    return asString(toleration['value']) === asString(taint['value']);
  return false;
}

/** The first taint with one of `effects` that no toleration tolerates. */
export function untoleratedTaint(
  taints: readonly JsonObject[],
  tolerations: readonly JsonObject[],
  effects: readonly TaintEffect[],
): JsonObject | undefined {
  return taints.find(
    (taint) =>
      effects.includes(asString(taint['effect']) as TaintEffect) &&
      !tolerations.some((t) => tolerates(t, taint)),
  );
}

/** v1.Toleration.MatchToleration: the same key, operator, value and effect. */
function matchToleration(a: JsonObject, b: JsonObject): boolean {
  return (
    asString(a['key']) === asString(b['key']) &&
    asString(a['effect']) === asString(b['effect']) &&
    asString(a['operator']) === asString(b['operator']) &&
    asString(a['value']) === asString(b['value'])
  );
}

/**
 * util.AddOrUpdateDaemonPodTolerations: daemon pods survive not-ready/unreachable nodes and are
 * placed on nodes with pressure, cordoned nodes and (hostNetwork only) nodes without a network.
 */
export function withDaemonTolerations(podSpec: JsonObject): JsonObject[] {
  const wanted: [string, TaintEffect][] = [
    [taintKeys.notReady, 'NoExecute'],
    [taintKeys.unreachable, 'NoExecute'],
    [taintKeys.diskPressure, 'NoSchedule'],
    [taintKeys.memoryPressure, 'NoSchedule'],
    [taintKeys.pidPressure, 'NoSchedule'],
    [taintKeys.unschedulable, 'NoSchedule'],
  ];
  if (podSpec['hostNetwork'] === true) wanted.push([taintKeys.networkUnavailable, 'NoSchedule']);
  const out = [...podTolerations(podSpec)];
  for (const [key, effect] of wanted) {
    const toleration: JsonObject = { key, operator: 'Exists', effect };
    // AddOrUpdateTolerationInPodSpec: a matching toleration (say with tolerationSeconds) is
    // replaced by the unbounded one; otherwise it is appended.
    const index = out.findIndex((t) => matchToleration(t, toleration));
    if (index < 0) out.push(toleration);
    else out[index] = toleration;
  }
  return out;
}

// Whether a pod template fits a node, as the scheduler's NodeAffinity/TaintToleration plugins and
// the DaemonSet controller's NodeShouldRunDaemonPod decide it: nodeSelector, required node
// affinity (terms ORed, requirements ANDed), and taints against tolerations.

import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';
import {
  nodeTaints,
  podTolerations,
  taintKeys,
  untoleratedTaint,
  withDaemonTolerations,
} from './taints.js';

type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
const operators: readonly string[] = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'];

function requirements(value: unknown): JsonObject[] {
  return asArray(value).filter(isJsonObject);
}

function parseInteger(text: string): number | undefined {
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}

/** One NodeSelectorRequirement against a value that may be absent (label not set). */
function matchesRequirement(req: JsonObject, value: string | undefined): boolean {
  const op = asString(req['operator']);
  if (!operators.includes(op)) return false;
  const values = asArray(req['values']).map((v) => asString(v));
  switch (op as Operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      // Gt/Lt need exactly one integer value and an integer label, else the term does not match.
      const have = value === undefined ? undefined : parseInteger(value);
      const bound = values.length === 1 ? parseInteger(values[0] ?? '') : undefined;
      if (have === undefined || bound === undefined) return false;
      return op === 'Gt' ? have > bound : have < bound;
    }
  }
}

/** matchFields supports only metadata.name, as the apiserver validates. */
function fieldValue(node: KubeObject, key: string): string | undefined {
  return key === 'metadata.name' ? (node.metadata.name ?? '') : undefined;
}

/** One NodeSelectorTerm: an empty term matches nothing. */
export function matchesTerm(term: JsonObject, node: KubeObject): boolean {
  const exprs = requirements(term['matchExpressions']);
  const fields = requirements(term['matchFields']);
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  return (
    exprs.every((req) => matchesRequirement(req, labels[asString(req['key'])])) &&
    fields.every((req) => matchesRequirement(req, fieldValue(node, asString(req['key']))))
  );
}

/** nodeSelectorTerms are ORed. */
export function matchesNodeSelectorTerms(terms: unknown, node: KubeObject): boolean {
  return requirements(terms).some((term) => matchesTerm(term, node));
}

export function matchesNodeSelector(podSpec: JsonObject, node: KubeObject): boolean {
  const labels = node.metadata.labels ?? {};
  return Object.entries(asRecord(podSpec['nodeSelector'])).every(
    ([key, value]) => labels[key] === asString(value),
  );
}

/** The affinity's required node selector, if the pod has one. */
export function requiredNodeSelector(podSpec: JsonObject): JsonObject | undefined {
  const required = asRecord(asRecord(podSpec['affinity'])['nodeAffinity'])[
    'requiredDuringSchedulingIgnoredDuringExecution'
  ];
  return isJsonObject(required) ? required : undefined;
}

/** nodeSelector and required node affinity both hold (the NodeAffinity filter). */
export function matchesNodeAffinity(podSpec: JsonObject, node: KubeObject): boolean {
  if (!matchesNodeSelector(podSpec, node)) return false;
  const required = requiredNodeSelector(podSpec);
  return required === undefined || matchesNodeSelectorTerms(required['nodeSelectorTerms'], node);
}

export function fitsNodeName(podSpec: JsonObject, node: KubeObject): boolean {
  const wanted = asString(podSpec['nodeName']);
  return wanted === '' || wanted === node.metadata.name;
}

export interface DaemonPlacement {
  /** A daemon pod should be created on the node if missing. */
  shouldRun: boolean;
  /** An existing daemon pod may stay (it tolerates every NoExecute taint). */
  shouldContinueRunning: boolean;
}

/**
 * NodeShouldRunDaemonPod, for a daemon pod spec that already carries the controller's
 * tolerations: untolerated NoSchedule taints stop new pods, only NoExecute ones evict.
 */
export function daemonPlacement(podSpec: JsonObject, node: KubeObject): DaemonPlacement {
  if (!fitsNodeName(podSpec, node) || !matchesNodeAffinity(podSpec, node))
    return { shouldRun: false, shouldContinueRunning: false };
  const taints = nodeTaints(node);
  const tolerations = podTolerations(podSpec);
  if (!untoleratedTaint(taints, tolerations, ['NoSchedule', 'NoExecute']))
    return { shouldRun: true, shouldContinueRunning: true };
  const evicting = untoleratedTaint(taints, tolerations, ['NoExecute']);
  return { shouldRun: false, shouldContinueRunning: evicting === undefined };
}

/** The daemon pod spec as the controller creates it: the template plus its tolerations. */
export function daemonPodSpec(templateSpec: JsonObject): JsonObject {
  return { ...templateSpec, tolerations: withDaemonTolerations(templateSpec) };
}

/** NodeShouldRunDaemonPod for a DaemonSet's pod template spec. */
export function nodeShouldRunDaemonPod(
  templateSpec: JsonObject,
  node: KubeObject,
): DaemonPlacement {
  return daemonPlacement(daemonPodSpec(templateSpec), node);
}

export type UnfitReason = 'node-name' | 'node-affinity' | 'unschedulable' | 'taint';

/** The default scheduler's filters for an ordinary pod, first failing reason first. */
export function podUnfitReason(podSpec: JsonObject, node: KubeObject): UnfitReason | undefined {
  if (!fitsNodeName(podSpec, node)) return 'node-name';
  if (!matchesNodeAffinity(podSpec, node)) return 'node-affinity';
  const tolerations = podTolerations(podSpec);
  // NodeUnschedulable: a cordon is honoured through the taint's key even before the taint exists.
  const cordon = { key: taintKeys.unschedulable, effect: 'NoSchedule' };
  if (
    asRecord(node['spec'])['unschedulable'] === true &&
    untoleratedTaint([cordon], tolerations, ['NoSchedule'])
  )
    return 'unschedulable';
  if (untoleratedTaint(nodeTaints(node), tolerations, ['NoSchedule', 'NoExecute'])) return 'taint';
  return undefined;
}

/**
 * Keeps the original kube-proxy off nodes that are switching or on nftables. Node selector terms
 * are ORed and a term's expressions ANDed (k8s.io/api core/v1 NodeSelector: "The terms are
 * ORed"), so the exclusion must join every existing term: a term of its own beside them would
 * match every node the others match and exclude nothing (EKS's DaemonSets carry several terms).
 */
import type { NodeSelector, NodeSelectorTerm } from './actions.js';
import type { Affinity, KubeDaemonSet, NodeSelectorRequirement, PodSpec } from './kube.js';

/** The values of the migration label, in the order a node takes them. */
export const MIGRATION_VALUES = { switching: 'switching', nftables: 'nftables' } as const;

/** `<label> NotIn [switching, nftables]`: what the original DaemonSet no longer runs on. */
export function exclusionOf(label: string): NodeSelectorRequirement {
  return {
    key: label,
    operator: 'NotIn',
    values: [MIGRATION_VALUES.switching, MIGRATION_VALUES.nftables],
  };
}

function isOurs(req: NodeSelectorRequirement, label: string): boolean {
  return req.key === label && req.operator === 'NotIn';
}

function isExactly(req: NodeSelectorRequirement, label: string): boolean {
  const want = exclusionOf(label).values ?? [];
  return (
    isOurs(req, label) &&
    req.values?.length === want.length &&
    want.every((v) => req.values?.includes(v))
  );
}

/** The required node affinity of a DaemonSet's pods, or null when it has none. */
export function requiredAffinity(ds: KubeDaemonSet): NodeSelector | null {
  return (
    ds.spec?.template?.spec?.affinity?.nodeAffinity
      ?.requiredDuringSchedulingIgnoredDuringExecution ?? null
  );
}

/**
 * The required node affinity with the exclusion in every term (one new term when there are
 * none). A term that has it already is returned as it is, so planning twice changes nothing; a
 * NotIn on the label with other values (an older plan, a hand edit) is replaced in place.
 */
export function withExclusion(required: NodeSelector | null, label: string): NodeSelector {
  const exclusion = exclusionOf(label);
  const terms = required?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return { nodeSelectorTerms: [{ matchExpressions: [exclusion] }] };
  const nodeSelectorTerms = terms.map((term): NodeSelectorTerm => {
    const expressions = term.matchExpressions ?? [];
    if (expressions.some((e) => isExactly(e, label))) return term;
    if (expressions.some((e) => isOurs(e, label))) {
      return {
        ...term,
        matchExpressions: expressions.map((e) => (isOurs(e, label) ? exclusion : e)),
      };
    }
    return { ...term, matchExpressions: [...expressions, exclusion] };
  });
  return { ...required, nodeSelectorTerms };
}

/**
 * The required node affinity without the exclusion: for the canary (cloned from an original that
 * may carry it already) and for the final hand-back. A term left empty was the one added for the
 * exclusion (an empty term matches nothing, so nobody writes one) and goes; no terms left, null.
 */
export function withoutExclusion(
  required: NodeSelector | null,
  label: string,
): NodeSelector | null {
  if (required === null) return null;
  const nodeSelectorTerms = required.nodeSelectorTerms.flatMap((term): NodeSelectorTerm[] => {
    const expressions = term.matchExpressions ?? [];
    if (!expressions.some((e) => isOurs(e, label))) return [term];
    const { matchExpressions: _drop, ...rest } = term;
    const kept = expressions.filter((e) => !isOurs(e, label));
    const next: NodeSelectorTerm = kept.length > 0 ? { ...rest, matchExpressions: kept } : rest;
    return (next.matchExpressions?.length ?? 0) + (next.matchFields?.length ?? 0) > 0 ? [next] : [];
  });
  return nodeSelectorTerms.length === 0 ? null : { ...required, nodeSelectorTerms };
}

/**
 * A pod spec with the given required node affinity; null removes it and any parent it empties.
 * Keys keep their places, so the manifest diffs only where the affinity does.
 */
export function podSpecWithRequired(spec: PodSpec, required: NodeSelector | null): PodSpec {
  const nodeAffinity: NonNullable<Affinity['nodeAffinity']> = { ...spec.affinity?.nodeAffinity };
  if (required === null) delete nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  else nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = required;
  const affinity: Affinity = { ...spec.affinity };
  if (Object.keys(nodeAffinity).length === 0) delete affinity.nodeAffinity;
  else affinity.nodeAffinity = nodeAffinity;
  const out: PodSpec = { ...spec };
  if (Object.keys(affinity).length === 0) delete out.affinity;
  else out.affinity = affinity;
  return out;
}

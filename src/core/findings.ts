/**
 * Findings: what a check says about the cluster. Bad cluster state is a finding, never an
 * exception. A `block` on a node forbids cutting that node over; `warn` needs a decision; `info`
 * is context; `pass` records that the check ran and found nothing.
 */

export const severities = ['block', 'warn', 'info', 'pass'] as const;
export type Severity = (typeof severities)[number];

/** Severity order for sorting and thresholds: lower is worse. */
export const severityRank: Record<Severity, number> = { block: 0, warn: 1, info: 2, pass: 3 };

export type ScopeKind = 'cluster' | 'pool' | 'node';

export interface Scope {
  kind: ScopeKind;
  /** The cluster, pool or node name. */
  name: string;
}

export interface Finding {
  /** The check's public id (reports name it, users suppress by it). */
  check: string;
  severity: Severity;
  scope: Scope;
  /** What the finding is about: node names, `namespace/name` of objects, metric names. */
  subjects: string[];
  /** One line: what was found. */
  title: string;
  /** Why it matters, with the evidence. */
  detail: string;
  /** What to do; required for block and warn. */
  remedy?: string;
  /** Exact commands or config snippets to run or apply. */
  commands: string[];
}

/** A finding with the defaults filled in; checks build theirs with this. */
export function finding(
  input: Omit<Finding, 'subjects' | 'commands' | 'detail'> &
    Partial<Pick<Finding, 'subjects' | 'commands' | 'detail'>>,
): Finding {
  if ((input.severity === 'block' || input.severity === 'warn') && !input.remedy) {
    throw new Error(`finding ${input.check}/${input.title}: ${input.severity} needs a remedy`);
  }
  return { subjects: [], commands: [], detail: '', ...input };
}

export function worstSeverity(findings: readonly Finding[]): Severity {
  return findings.reduce<Severity>(
    (worst, f) => (severityRank[f.severity] < severityRank[worst] ? f.severity : worst),
    'pass',
  );
}

/** Stable report order: worst first, then cluster before pool before node, then by name. */
export function compareFindings(a: Finding, b: Finding): number {
  const scopeRank: Record<ScopeKind, number> = { cluster: 0, pool: 1, node: 2 };
  return (
    severityRank[a.severity] - severityRank[b.severity] ||
    scopeRank[a.scope.kind] - scopeRank[b.scope.kind] ||
    a.scope.name.localeCompare(b.scope.name) ||
    a.check.localeCompare(b.check)
  );
}

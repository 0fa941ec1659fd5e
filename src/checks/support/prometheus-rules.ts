/** The alert and recording rules in PrometheusRule objects, flattened for checks that scan them. */
import type { PrometheusRule } from '../../core/kube.js';

export interface RuleExpression {
  /** `namespace/name` of the PrometheusRule. */
  object: string;
  group: string;
  alert: string | undefined;
  record: string | undefined;
  /** The expression as text (YAML may have parsed a bare number). */
  expr: string;
}

export function ruleExpressions(rules: readonly PrometheusRule[]): RuleExpression[] {
  return rules.flatMap((rule) => {
    const object = `${rule.metadata.namespace ?? 'default'}/${rule.metadata.name}`;
    return (rule.spec?.groups ?? []).flatMap((group) =>
      (group.rules ?? []).map((r) => ({
        object,
        group: group.name,
        alert: r.alert,
        record: r.record,
        expr: String(r.expr ?? ''),
      })),
    );
  });
}

// monitoring.coreos.com/v1 PrometheusRule, a custom resource with a structural schema: written by
// hand from prometheus-operator's CRD (example/prometheus-operator-crd/
// monitoring.coreos.com_prometheusrules.yaml, operator v0.82.2). Its `groups` list is a map keyed
// by name; `rules` carries no list type, so it is atomic. Nothing preserves unknown fields, so the
// apiserver prunes them as it does for built-in kinds (and Strict rejects them).

import type { KindSchema, MapNode } from './types.js';
import { atomicList, f, mapList, mapOf, num, str, struct, untyped } from './types.js';
import { ObjectMeta } from './meta.js';

const Rule: MapNode = struct('Rule', {
  record: str,
  alert: str,
  expr: untyped,
  for: str,
  keep_firing_for: str,
  labels: mapOf(str),
  annotations: mapOf(str),
});

const RuleGroup: MapNode = struct('RuleGroup', {
  name: str,
  interval: str,
  labels: mapOf(str),
  limit: num,
  partial_response_strategy: str,
  query_offset: str,
  rules: atomicList(Rule),
});

export const PrometheusRule: MapNode = struct('PrometheusRule', {
  apiVersion: str,
  kind: str,
  metadata: f(ObjectMeta, {}),
  spec: struct('PrometheusRuleSpec', { groups: mapList(RuleGroup, 'name') }),
});

export const kinds: KindSchema[] = [
  {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    root: PrometheusRule,
    custom: true,
  },
];

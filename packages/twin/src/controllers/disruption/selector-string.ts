// A budget's selector as the UnmanagedPods event prints it: `%v` of a *metav1.LabelSelector,
// which is its generated (gogo-protobuf) String() method.

import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, asString, isJsonObject } from '../../apimachinery/types.js';

export function selectorString(pdb: KubeObject): string {
  const selector = asRecord(pdb['spec'])['selector'];
  if (!isJsonObject(selector)) return '<nil>';
  const labels = Object.entries(asRecord(selector['matchLabels']))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}: ${asString(v)},`)
    .join('');
  const expressions = asArray(selector['matchExpressions'])
    .map(asRecord)
    .map(
      (e) =>
        `LabelSelectorRequirement{Key:${asString(e['key'])},Operator:${asString(e['operator'])},` +
        `Values:[${asArray(e['values'])
          .map((v) => asString(v))
          .join(' ')}],},`,
    )
    .join('');
  return (
    `&LabelSelector{MatchLabels:map[string]string{${labels}},` +
    `MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`
  );
}

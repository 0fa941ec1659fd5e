import { describe, expect, it } from 'vitest';
import { ruleExpressions } from '../../../../src/checks/support/prometheus-rules.js';
import { prometheusRule } from '../../../fixtures/checks-b.js';

describe('ruleExpressions', () => {
  it('flattens every rule with the object and group it sits in', () => {
    const rules = [
      prometheusRule('monitoring', 'kube-proxy', [
        { alert: 'KubeProxyDown', expr: 'up == 0' },
        { record: 'job:x', expr: 'sum(x)' },
      ]),
      { metadata: { name: 'bare' }, spec: { groups: [{ name: 'g', rules: [{ expr: 1 }] }] } },
    ];
    expect(ruleExpressions(rules)).toEqual([
      {
        object: 'monitoring/kube-proxy',
        group: 'kube-proxy',
        alert: 'KubeProxyDown',
        record: undefined,
        expr: 'up == 0',
      },
      {
        object: 'monitoring/kube-proxy',
        group: 'kube-proxy',
        alert: undefined,
        record: 'job:x',
        expr: 'sum(x)',
      },
      { object: 'default/bare', group: 'g', alert: undefined, record: undefined, expr: '1' },
    ]);
  });
});

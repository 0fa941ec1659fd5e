import { describe, expect, it } from 'vitest';
import { matchesFields, parseFieldSelector } from '../../../src/apimachinery/field-selector.js';
import {
  formatLabelSelector,
  fromLabelSelectorObject,
  matchesLabels,
  parseLabelSelector,
  SelectorParseError,
} from '../../../src/apimachinery/label-selector.js';
import type { KubeObject } from '../../../src/apimachinery/types.js';

const labels = { 'node-pool': 'blue', 'node-role.kubernetes.io/control-plane': '', tier: '3' };
const select = (s: string): boolean => matchesLabels(parseLabelSelector(s), labels);

describe('label selectors', () => {
  it('supports equality, inequality and existence', () => {
    expect(select('node-pool=blue')).toBe(true);
    expect(select('node-pool==blue')).toBe(true);
    expect(select('node-pool!=blue')).toBe(false);
    expect(select('missing!=x')).toBe(true);
    expect(select('node-role.kubernetes.io/control-plane')).toBe(true);
    expect(select('!node-role.kubernetes.io/control-plane')).toBe(false);
    expect(select('!missing')).toBe(true);
    expect(select('')).toBe(true);
  });

  it('supports set-based requirements, combined with commas', () => {
    expect(select('node-pool in (green,blue)')).toBe(true);
    expect(select('node-pool notin (green, blue)')).toBe(false);
    expect(select('missing notin (a)')).toBe(true);
    expect(select('node-pool in (blue),!missing,tier')).toBe(true);
    expect(select('node-pool in (blue),missing')).toBe(false);
    expect(select('tier>2')).toBe(true);
    expect(select('tier<2')).toBe(false);
  });

  it('rejects malformed selectors', () => {
    expect(() => parseLabelSelector('a in b')).toThrow(SelectorParseError);
    expect(() => parseLabelSelector('a=b,')).toThrow(SelectorParseError);
    expect(() => parseLabelSelector('=b')).toThrow(SelectorParseError);
  });

  it('converts and formats LabelSelector objects like kubectl', () => {
    const sel = fromLabelSelectorObject({
      matchLabels: { 'k8s-app': 'kube-proxy' },
      matchExpressions: [
        { key: 'mode', operator: 'NotIn', values: ['nftables', 'iptables'] },
        { key: 'a', operator: 'Exists' },
      ],
    });
    expect(formatLabelSelector(sel)).toBe('a,k8s-app=kube-proxy,mode notin (iptables,nftables)');
    expect(matchesLabels(sel, { 'k8s-app': 'kube-proxy', a: '' })).toBe(true);
    expect(matchesLabels(sel, { 'k8s-app': 'kube-proxy', a: '', mode: 'nftables' })).toBe(false);
  });
});

describe('field selectors', () => {
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p1', namespace: 'kube-system' },
    spec: { nodeName: 'blue-1' },
    status: { phase: 'Running' },
  };

  it('matches the fields pods index', () => {
    expect(matchesFields(parseFieldSelector('spec.nodeName=blue-1', 'pods'), pod)).toBe(true);
    expect(matchesFields(parseFieldSelector('status.phase!=Running', 'pods'), pod)).toBe(false);
    expect(
      matchesFields(
        parseFieldSelector('metadata.name==p1,metadata.namespace=kube-system', 'pods'),
        pod,
      ),
    ).toBe(true);
    expect(matchesFields(parseFieldSelector('spec.hostNetwork=false', 'pods'), pod)).toBe(true);
  });

  it('rejects fields a resource does not support, as the apiserver does', () => {
    expect(() => parseFieldSelector('spec.nodeName=x', 'configmaps')).toThrow(
      'field label not supported: spec.nodeName',
    );
  });

  it('selects Services on spec.type and spec.clusterIP from v1.31, as kubernetes#123905 added', () => {
    const svc: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { type: 'NodePort', clusterIP: '10.96.0.10' },
    };
    const v = (minor: number) => ({ major: 1, minor, patch: 0 });
    expect(matchesFields(parseFieldSelector('spec.type=NodePort', 'services', v(31)), svc)).toBe(
      true,
    );
    expect(
      matchesFields(parseFieldSelector('spec.clusterIP!=10.96.0.10', 'services', v(33)), svc),
    ).toBe(false);
    // Without a served version: the newest release's fields.
    expect(matchesFields(parseFieldSelector('spec.type=ClusterIP', 'services'), svc)).toBe(false);
    expect(() => parseFieldSelector('spec.type=NodePort', 'services', v(30))).toThrow(
      'field label not supported: spec.type',
    );
    expect(() => parseFieldSelector('spec.clusterIP=None', 'services', v(30))).toThrow(
      'field label not supported: spec.clusterIP',
    );
  });
});

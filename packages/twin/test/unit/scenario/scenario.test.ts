import { describe, expect, it } from 'vitest';
import {
  parseScenario,
  resolveScenarioPath,
  ScenarioError,
  loadScenario,
} from '../../../src/scenario/scenario.js';

const header = `apiVersion: twin.proxy-migrate.io/v1
kind: Scenario
metadata: { name: unit }
spec:
  kubernetesVersion: v1.33.4
`;

function errorOf(text: string): string {
  try {
    parseScenario(text, 'test.yaml');
  } catch (error) {
    if (error instanceof ScenarioError) return error.message;
    throw error;
  }
  throw new Error('expected a ScenarioError');
}

describe('scenario validation', () => {
  it('names the document and field of a bad header', () => {
    expect(errorOf(header.replace('v1.33.4', 'one-three-three'))).toMatch(
      /^scenario test\.yaml: document 1 \(the Scenario header\): spec\.kubernetesVersion: must look like v1\.33\.4/,
    );
    expect(errorOf(header.replace('kind: Scenario', 'kind: Other'))).toContain('kind:');
    expect(errorOf(`${header}  faults: [{ kind: error, status: 418, rate: 1 }]\n`)).toContain(
      'spec.faults[0].status',
    );
    expect(errorOf(`${header}  hosts: [{ match: '*', faults: [melt] }]\n`)).toContain(
      'spec.hosts[0].faults[0]',
    );
    expect(errorOf('')).toContain('empty file');
  });

  it('names the document of a bad object', () => {
    expect(
      errorOf(`${header}---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: { name: s }\n`),
    ).toContain('document 2: kind StatefulSet (apps/v1) is not served by the twin');
    expect(errorOf(`${header}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {}\n`)).toContain(
      'document 2 (ConfigMap): metadata.name: required',
    );
  });
});

describe('scenario defaults', () => {
  const s = parseScenario(
    `${header}---
apiVersion: v1
kind: List
items:
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: a } }
  - { apiVersion: v1, kind: ConfigMap, metadata: { name: b, namespace: monitoring } }
---
apiVersion: v1
kind: Node
metadata: { name: n1 }
---
apiVersion: v1
kind: Pod
metadata:
  name: kube-proxy-x
  namespace: kube-system
  ownerReferences: [{ apiVersion: apps/v1, kind: DaemonSet, name: kube-proxy, uid: u }]
---
apiVersion: v1
kind: Pod
metadata: { name: web }
`,
    'inline',
  );

  it('flattens Lists, defaults namespaces and creates the referenced ones', () => {
    const cms = s.objects.filter((o) => o.kind === 'ConfigMap');
    expect(cms.map((o) => o.metadata.namespace)).toEqual(['default', 'monitoring']);
    const namespaces = s.objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name);
    expect(namespaces).toEqual(expect.arrayContaining(['default', 'kube-system', 'monitoring']));
  });

  it('makes nodes Ready, pods Running, and skips DaemonSet pods', () => {
    const node = s.objects.find((o) => o.kind === 'Node')!;
    const conditions = (node['status'] as { conditions: { type: string; status: string }[] })
      .conditions;
    expect(conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.metadata.labels?.['kubernetes.io/hostname']).toBe('n1');
    const pods = s.objects.filter((o) => o.kind === 'Pod');
    expect(pods.map((p) => p.metadata.name)).toEqual(['web']);
    expect((pods[0]!['status'] as { phase: string }).phase).toBe('Running');
    expect(s.warnings[0]).toContain('kube-proxy-x');
  });

  it('generates nodes and services deterministically', () => {
    const text = `${header}  generate:
    nodes: [{ namePrefix: pool-a-, count: 3, labels: { pool: a }, kernel: 5.4.0-80-generic }]
    services: { count: 5, namespaces: 2, nodePortEvery: 2, endpointsPerService: 2 }
`;
    const one = parseScenario(text);
    const two = parseScenario(text);
    expect(JSON.stringify(one.objects)).toBe(JSON.stringify(two.objects));
    const nodes = one.objects.filter((o) => o.kind === 'Node');
    expect(nodes.map((n) => n.metadata.name)).toEqual(['pool-a-1', 'pool-a-2', 'pool-a-3']);
    const services = one.objects.filter((o) => o.kind === 'Service');
    expect(services).toHaveLength(5);
    expect(
      services.filter((o) => (o['spec'] as { type: string }).type === 'NodePort'),
    ).toHaveLength(2);
    const slices = one.objects.filter((o) => o.kind === 'EndpointSlice');
    expect(slices).toHaveLength(5);
    expect((slices[0]!['endpoints'] as unknown[]).length).toBe(2);
    expect(one.objects.some((o) => o.kind === 'Namespace' && o.metadata.name === 'app-2')).toBe(
      true,
    );
  });
});

describe('shipped scenarios', () => {
  it('resolves names to the repository scenarios folder', async () => {
    expect(resolveScenarioPath('kubeadm-ipvs')).toMatch(/scenarios\/kubeadm-ipvs\.yaml$/);
    expect(() => resolveScenarioPath('no-such-scenario')).toThrow(/shipped: .*kubeadm-ipvs/);
    const s = await loadScenario('kubeadm-ipvs');
    expect(s.header.metadata.name).toBe('kubeadm-ipvs');
    expect(s.objects.filter((o) => o.kind === 'Node')).toHaveLength(6);
  });
});

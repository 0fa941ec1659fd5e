// What kubectl sends through its typed clients: `create namespace|configmap|serviceaccount|
// service|deployment` and `auth can-i` post protobuf bodies (and do not retry as JSON after a 415), with
// both kubectl 1.33 (the dispatcher's choice for a v1.33 server) and the built-in 1.32.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../src/index.js';
import { startTwin } from '../../src/index.js';
import type { Kubectl } from '../../src/testing/kubectl.js';
import { kubectlWith } from '../../src/testing/kubectl.js';

// kubeadm-ipvs serves v1.33.4 (kubectl 1.33.1 runs); kubeadm-blank-mode v1.35.2 (the built-in 1.32.4).
describe.each([
  ['kubeadm-ipvs', 'v1.33.1'],
  ['kubeadm-blank-mode', 'v1.32.4'],
])('kubectl typed clients against %s', (scenario, client) => {
  let twin: Twin;
  let dir: string;
  let kubectl: Kubectl;

  beforeAll(async () => {
    twin = await startTwin({ scenario });
    dir = await mkdtemp(join(tmpdir(), 'twin-typed-'));
    await twin.writeKubeconfig(join(dir, 'kubeconfig'));
    kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 20_000 });
  });

  afterAll(async () => {
    await twin.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(`runs kubectl ${client}`, async () => {
    expect((await kubectl('version', '--client')).stdout).toContain(`Client Version: ${client}`);
  });

  it('sends create namespace as protobuf, and the namespace is created', async () => {
    const r = await kubectl('create', 'namespace', 'typed-ns', '-v=8');
    expect(r.stderr).toMatch(/Content-Type: application\/vnd\.kubernetes\.protobuf/);
    expect(r.stdout).toBe('namespace/typed-ns created\n');
    const ns = JSON.parse((await kubectl('get', 'ns', 'typed-ns', '-o', 'json')).stdout) as {
      status: { phase: string };
    };
    expect(ns.status.phase).toBe('Active');
  });

  it('creates a configmap, a service account and a service from protobuf bodies', async () => {
    const cm = await kubectl(
      'create',
      'configmap',
      'typed-cm',
      '-n',
      'typed-ns',
      '--from-literal=mode=nftables',
      '--from-literal=x=y',
    );
    expect(cm.stdout).toBe('configmap/typed-cm created\n');
    const data = await kubectl('get', 'cm', 'typed-cm', '-n', 'typed-ns', '-o', 'jsonpath={.data}');
    expect(JSON.parse(data.stdout)).toEqual({ mode: 'nftables', x: 'y' });
    expect((await kubectl('create', 'serviceaccount', 'typed-sa', '-n', 'typed-ns')).stdout).toBe(
      'serviceaccount/typed-sa created\n',
    );
    expect(
      (
        await kubectl(
          'create',
          'service',
          'clusterip',
          'typed-svc',
          '-n',
          'typed-ns',
          '--tcp=80:8080',
        )
      ).stdout,
    ).toBe('service/typed-svc created\n');
    const port = await kubectl(
      'get',
      'svc',
      'typed-svc',
      '-n',
      'typed-ns',
      '-o',
      'jsonpath={.spec.ports[0].targetPort}',
    );
    expect(port.stdout).toBe('8080');
  });

  it('creates a deployment with its pod template from a protobuf body', async () => {
    const r = await kubectl(
      'create',
      'deployment',
      'typed-deploy',
      '-n',
      'typed-ns',
      '--image=registry.k8s.io/pause:3.10',
      '--port=8080',
      '--replicas=2',
      '--',
      'sleep',
      '3600',
    );
    expect(r.stdout).toBe('deployment.apps/typed-deploy created\n');
    const spec = JSON.parse(
      (await kubectl('get', 'deploy', 'typed-deploy', '-n', 'typed-ns', '-o', 'jsonpath={.spec}'))
        .stdout,
    ) as { replicas: number; template: { spec: { containers: Record<string, unknown>[] } } };
    expect(spec.replicas).toBe(2);
    expect(spec.template.spec.containers[0]).toMatchObject({
      name: 'pause',
      image: 'registry.k8s.io/pause:3.10',
      command: ['sleep', '3600'],
      ports: [{ containerPort: 8080, protocol: 'TCP' }],
    });
  });

  it('answers kubectl auth can-i yes (AlwaysAllow)', async () => {
    const r = await kubectl('auth', 'can-i', 'create', 'leases', '-n', 'kube-system');
    expect([r.code, r.stdout]).toEqual([0, 'yes\n']);
    const list = await kubectl('auth', 'can-i', '--list', '-n', 'default');
    expect(list.stdout.split('\n').slice(0, 3)).toEqual([
      'Resources   Non-Resource URLs   Resource Names   Verbs',
      '*.*         []                  []               [*]',
      '            [*]                 []               [*]',
    ]);
  });

  it('lists the authorization.k8s.io reviews in discovery', async () => {
    const r = await kubectl('api-resources', '--api-group=authorization.k8s.io', '-o', 'name');
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      'localsubjectaccessreviews.authorization.k8s.io',
      'selfsubjectaccessreviews.authorization.k8s.io',
      'selfsubjectrulesreviews.authorization.k8s.io',
      'subjectaccessreviews.authorization.k8s.io',
    ]);
  });
});

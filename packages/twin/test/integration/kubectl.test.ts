// Runs the real kubectl against the twin: discovery, Table printing, selectors, paging, label,
// annotate, every patch type, server-side apply, create, delete and error messages.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../src/index.js';
import { startTwin } from '../../src/index.js';
import type { Kubectl } from '../../src/testing/kubectl.js';
import { kubectlWith, rows } from '../../src/testing/kubectl.js';

let twin: Twin;
let dir: string;
let kubectl: Kubectl;

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs' });
  dir = await mkdtemp(join(tmpdir(), 'twin-kubectl-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  // A private HOME keeps kubectl's discovery and HTTP caches out of other tests.
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 20_000 });
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('kubectl against the twin', () => {
  it('reports the scenario version', async () => {
    const r = await kubectl('version');
    expect(r.stdout).toContain('Server Version: v1.33.4');
  });

  it('gets nodes with server-rendered columns', async () => {
    const r = await kubectl('get', 'nodes');
    expect(r.code).toBe(0);
    const table = rows(r.stdout);
    expect(table[0]).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    expect(table.slice(1).map((row) => row[0])).toEqual([
      'blue-1',
      'blue-2',
      'cp-1',
      'green-1',
      'green-2',
      'legacy-1',
    ]);
    const cp = table.find((row) => row[0] === 'cp-1')!;
    expect(cp[1]).toBe('Ready');
    expect(cp[2]).toBe('control-plane');
    expect(cp[3]).toMatch(/^\d+(d|y\d*d?)$/);
    expect(cp[4]).toBe('v1.33.4');
    expect(table.find((row) => row[0] === 'blue-1')![2]).toBe('<none>');
  });

  it('gets nodes -o wide with the priority-1 columns', async () => {
    const table = rows((await kubectl('get', 'nodes', '-o', 'wide')).stdout);
    expect(table[0]).toEqual([
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
      'OS-IMAGE',
      'KERNEL-VERSION',
      'CONTAINER-RUNTIME',
    ]);
    const legacy = table.find((row) => row[0] === 'legacy-1')!;
    expect(legacy.slice(5)).toEqual([
      '10.0.3.31',
      '<none>',
      'Ubuntu 20.04.2 LTS',
      '5.4.0-80-generic',
      'containerd://1.6.33',
    ]);
  });

  it('filters by label on the server', async () => {
    const table = rows((await kubectl('get', 'nodes', '-l', 'node-pool=blue')).stdout);
    expect(table.slice(1).map((row) => row[0])).toEqual(['blue-1', 'blue-2']);
    const set = rows(
      (await kubectl('get', 'nodes', '-l', 'node-pool in (green,legacy)', '-o', 'name')).stdout,
    );
    expect(set.flat()).toEqual(['node/green-1', 'node/green-2', 'node/legacy-1']);
  });

  it('gets pods in all namespaces, daemonsets and services', async () => {
    const pods = rows((await kubectl('get', 'pods', '-A')).stdout);
    expect(pods[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(pods.find((row) => row[1] === 'etcd-cp-1')?.slice(0, 5)).toEqual([
      'kube-system',
      'etcd-cp-1',
      '1/1',
      'Running',
      '0',
    ]);
    const ds = rows((await kubectl('get', 'ds', '-n', 'kube-system')).stdout);
    expect(ds[0]).toEqual([
      'NAME',
      'DESIRED',
      'CURRENT',
      'READY',
      'UP-TO-DATE',
      'AVAILABLE',
      'NODE SELECTOR',
      'AGE',
    ]);
    expect(ds[1]?.slice(0, 7)).toEqual([
      'kube-proxy',
      '6',
      '6',
      '6',
      '6',
      '6',
      'kubernetes.io/os=linux',
    ]);
    const svc = rows((await kubectl('get', 'svc', '-n', 'kube-system')).stdout);
    expect(svc[1]?.slice(0, 5)).toEqual([
      'kube-dns',
      'ClusterIP',
      '10.96.0.10',
      '<none>',
      '53/UDP,53/TCP,9153/TCP',
    ]);
  });

  it('prints the kube-proxy config with jsonpath and custom columns', async () => {
    const conf = await kubectl(
      'get',
      'cm',
      'kube-proxy',
      '-n',
      'kube-system',
      '-o',
      'jsonpath={.data.config\\.conf}',
    );
    expect(conf.stdout).toContain('kind: KubeProxyConfiguration');
    expect(conf.stdout).toContain('\nmode: ipvs\n');
    expect(conf.stdout).toContain('  scheduler: rr\n');
    const cols = rows(
      (
        await kubectl(
          'get',
          'nodes',
          '-o',
          'custom-columns=NAME:.metadata.name,KERNEL:.status.nodeInfo.kernelVersion',
        )
      ).stdout,
    );
    expect(cols[0]).toEqual(['NAME', 'KERNEL']);
    expect(cols).toContainEqual(['legacy-1', '5.4.0-80-generic']);
    expect(cols).toContainEqual(['green-1', '6.8.0-51-generic']);
  });

  it('labels and annotates nodes', async () => {
    expect((await kubectl('label', 'node', 'blue-1', 'foo=bar')).stdout.trim()).toBe(
      'node/blue-1 labeled',
    );
    const again = await kubectl('label', 'node', 'blue-1', 'foo=baz');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("'foo' already has a value (bar), and --overwrite is false");
    expect((await kubectl('label', 'node', 'blue-1', 'foo=baz', '--overwrite')).stdout.trim()).toBe(
      'node/blue-1 labeled',
    );
    expect((await kubectl('get', 'nodes', '-l', 'foo=baz', '-o', 'name')).stdout.trim()).toBe(
      'node/blue-1',
    );
    expect((await kubectl('label', 'node', 'blue-1', 'foo-')).stdout.trim()).toBe(
      'node/blue-1 unlabeled',
    );
    expect(
      (await kubectl('annotate', 'node', 'blue-1', 'proxy-migrate.io/note=canary')).stdout.trim(),
    ).toBe('node/blue-1 annotated');
    const note = await kubectl(
      'get',
      'node',
      'blue-1',
      '-o',
      'jsonpath={.metadata.annotations.proxy-migrate\\.io/note}',
    );
    expect(note.stdout).toBe('canary');
  });

  it('patches the kube-proxy DaemonSet with every patch type', async () => {
    const ds = ['ds', 'kube-proxy', '-n', 'kube-system'];
    const strategic = await kubectl(
      'patch',
      ...ds,
      '-p',
      JSON.stringify({
        spec: {
          template: {
            spec: { containers: [{ name: 'kube-proxy', env: [{ name: 'FOO', value: '1' }] }] },
          },
        },
      }),
    );
    expect(strategic.stdout.trim()).toBe('daemonset.apps/kube-proxy patched');
    const env = await kubectl(
      'get',
      ...ds,
      '-o',
      'jsonpath={.spec.template.spec.containers[0].env[*].name} {.metadata.generation}',
    );
    expect(env.stdout).toBe('NODE_NAME FOO 2');
    const merge = await kubectl(
      'patch',
      ...ds,
      '--type',
      'merge',
      '-p',
      '{"metadata":{"labels":{"migrated":"no"}}}',
    );
    expect(merge.stdout.trim()).toBe('daemonset.apps/kube-proxy patched');
    const json = await kubectl(
      'patch',
      ...ds,
      '--type',
      'json',
      '-p',
      JSON.stringify([
        { op: 'test', path: '/metadata/labels/migrated', value: 'no' },
        { op: 'replace', path: '/metadata/labels/migrated', value: 'yes' },
      ]),
    );
    expect(json.stdout.trim()).toBe('daemonset.apps/kube-proxy patched');
    expect((await kubectl('get', ...ds, '-o', 'jsonpath={.metadata.labels.migrated}')).stdout).toBe(
      'yes',
    );
    const failed = await kubectl(
      'patch',
      ...ds,
      '--type',
      'json',
      '-p',
      '[{"op":"test","path":"/metadata/labels/migrated","value":"no"}]',
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('test failed');
  });

  it('server-side applies, creates and deletes ConfigMaps', async () => {
    const file = join(dir, 'cm.yaml');
    await writeFile(
      file,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-proxy-nftables\n  namespace: kube-system\ndata:\n  config.conf: "mode: nftables"\n',
    );
    expect((await kubectl('apply', '--server-side', '-f', file)).stdout.trim()).toBe(
      'configmap/kube-proxy-nftables serverside-applied',
    );
    const get = rows((await kubectl('get', 'cm', '-n', 'kube-system')).stdout);
    expect(get.find((row) => row[0] === 'kube-proxy-nftables')?.[1]).toBe('1');
    const dup = await kubectl('create', '-f', file);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('configmaps "kube-proxy-nftables" already exists');
    expect(
      (await kubectl('delete', 'cm', 'kube-proxy-nftables', '-n', 'kube-system')).stdout.trim(),
    ).toBe('configmap "kube-proxy-nftables" deleted');
    expect((await kubectl('create', '-f', file)).stdout.trim()).toBe(
      'configmap/kube-proxy-nftables created',
    );
    await kubectl('delete', 'cm', 'kube-proxy-nftables', '-n', 'kube-system');
    const gone = await kubectl('get', 'cm', 'kube-proxy-nftables', '-n', 'kube-system');
    expect(gone.stderr.trim()).toBe(
      'Error from server (NotFound): configmaps "kube-proxy-nftables" not found',
    );
  });

  it('pages with --chunk-size', async () => {
    const table = rows((await kubectl('get', 'nodes', '--chunk-size=2')).stdout);
    expect(table.filter((row) => row[0] === 'NAME')).toHaveLength(1);
    expect(table.slice(1).map((row) => row[0])).toEqual([
      'blue-1',
      'blue-2',
      'cp-1',
      'green-1',
      'green-2',
      'legacy-1',
    ]);
  });

  it('prints NotFound errors like a real cluster', async () => {
    const node = await kubectl('get', 'node', 'nx');
    expect(node.code).toBe(1);
    expect(node.stderr.trim()).toBe('Error from server (NotFound): nodes "nx" not found');
    const ns = await kubectl('get', 'pods', 'nx', '-n', 'nope');
    expect(ns.stderr.trim()).toBe('Error from server (NotFound): namespaces "nope" not found');
  });
});

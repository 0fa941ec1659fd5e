// The product's Kubernetes adapter over the real @kubernetes/client-node, against the twin.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeCluster } from '../../../src/adapters/kubernetes/cluster-client.js';
import { kubeConfigFor } from '../../../src/adapters/kubernetes/kubeconfig.js';
import { clusterConfig as configure, type ClusterConfig } from '../../../src/config.js';
import type { KubeDaemonSet } from '../../../src/core/kube.js';
import { AppError } from '../../../src/errors.js';
import { resourceFor, startTwin, type Twin } from '@proxy-migrate/twin';

function clusterConfig(over: Partial<ClusterConfig>): ClusterConfig {
  return { ...configure({ name: 'cluster-a' }), ...over };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function kubeConfigAt(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'x', server, skipTLSVerify: true }],
    users: [{ name: 'x', token: 't' }],
    contexts: [{ name: 'x', cluster: 'x', user: 'x' }],
    currentContext: 'x',
  });
  return kc;
}

describe('KubeCluster against the twin', () => {
  let twin: Twin;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    twin = await startTwin({ scenario: 'kubeadm-ipvs' });
    dir = await mkdtemp(join(tmpdir(), 'pm-kube-'));
    kubeconfig = join(dir, 'kubeconfig.yaml');
    await twin.writeKubeconfig(kubeconfig);
  });
  afterAll(async () => {
    await twin.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the version, pages through nodes and reports progress per page', async () => {
    const kc = kubeConfigFor(clusterConfig({ kubeconfig, context: twin.name }), []);
    const cluster = new KubeCluster('cluster-a', kc, { pageSize: 2 });
    expect(await cluster.serverVersion()).toBe('v1.33.4');
    const progress: [number, number][] = [];
    const nodes = await cluster.listNodes((received, pages) => progress.push([received, pages]));
    expect(nodes.map((n) => n.metadata.name).sort()).toEqual(
      ['blue-1', 'blue-2', 'cp-1', 'green-1', 'green-2', 'legacy-1'].sort(),
    );
    expect(progress).toEqual([
      [2, 1],
      [4, 2],
      [6, 3],
    ]);
    // Objects come back in the API's JSON shape, timestamps as strings.
    expect(typeof nodes[0]?.metadata.creationTimestamp).toBe('string');
    expect(nodes[0]?.status?.nodeInfo?.kernelVersion).toMatch(/^\d+\.\d+/);
  });

  it('restarts a list whose continue token expired (410) and still returns every node once', async () => {
    const cluster = new KubeCluster('cluster-a', kubeConfigFor(clusterConfig({ kubeconfig }), []), {
      pageSize: 2,
    });
    const progress: [number, number][] = [];
    let compacted = false;
    const nodes = await cluster.listNodes((received, pages) => {
      progress.push([received, pages]);
      // After the first page, a write and a compaction (as etcd does) expire the token.
      if (!compacted) {
        compacted = true;
        const def = resourceFor('configmaps');
        const cm = twin.store.get(def, 'kube-system', 'kube-proxy')!;
        twin.store.update(def, { ...cm, metadata: { ...cm.metadata, labels: { touched: 'yes' } } });
        twin.store.compact();
      }
    });
    expect(nodes.map((n) => n.metadata.name).sort()).toEqual(
      ['blue-1', 'blue-2', 'cp-1', 'green-1', 'green-2', 'legacy-1'].sort(),
    );
    expect(progress).toEqual([
      [2, 1],
      [2, 1],
      [4, 2],
      [6, 3],
    ]);
  });

  it('reuses its connections: pages of a list share one pool, not a TCP connection each', async () => {
    const kc = kubeConfigFor(clusterConfig({ kubeconfig, context: twin.name }), []);
    const cluster = new KubeCluster('cluster-a', kc, { pageSize: 1 });
    twin.stats.reset();
    const nodes = await cluster.listNodes();
    const services = await cluster.listServices();
    const requests = twin.stats.count('list', 'nodes') + twin.stats.count('list', 'services');
    expect(requests).toBe(nodes.length + services.length);
    expect(requests).toBeGreaterThan(8);
    // Sequential pages over keep-alive: one connection (two if one idled out between them).
    expect(twin.stats.connections()).toBeLessThanOrEqual(2);
  });

  it('parses list pages as plain JSON and keeps, page by page, only what `keep` returns', async () => {
    const kc = kubeConfigFor(clusterConfig({ kubeconfig, context: twin.name }), []);
    const cluster = new KubeCluster('cluster-a', kc, { pageSize: 1 });
    const all = await cluster.listPods('spec.hostNetwork=true');
    expect(all.length).toBeGreaterThan(2);
    // Plain objects in the API's JSON shape (no SDK model classes, no managedFields).
    expect(Object.getPrototypeOf(all[0])).toBe(Object.prototype);
    expect(all.every((p) => !('managedFields' in p.metadata))).toBe(true);
    expect(all[0]?.metadata.creationTimestamp).toEqual(expect.any(String));
    const seen: string[] = [];
    const kept = await cluster.listPods('spec.hostNetwork=true', (pod) => {
      seen.push(pod.metadata.name ?? '');
      return seen.length === 1 ? { metadata: pod.metadata } : undefined;
    });
    expect(seen).toHaveLength(all.length);
    expect(kept).toEqual([{ metadata: all[0]?.metadata }]);
  });

  it('reads DaemonSets and ConfigMaps, and a missing ConfigMap is undefined, not an error', async () => {
    const cluster = new KubeCluster('cluster-a', kubeConfigFor(clusterConfig({ kubeconfig }), []));
    const daemonSets = await cluster.listDaemonSets('kube-system');
    expect(daemonSets.map((d) => d.metadata.name)).toContain('kube-proxy');
    const cm = await cluster.getConfigMap('kube-system', 'kube-proxy');
    expect(cm?.data?.['config.conf']).toContain('mode: ipvs');
    expect(await cluster.getConfigMap('kube-system', 'nope')).toBeUndefined();
  });

  it('lists Services, ConfigMaps, host-network Pods and PrometheusRules across namespaces', async () => {
    const cluster = new KubeCluster('cluster-a', kubeConfigFor(clusterConfig({ kubeconfig }), []), {
      pageSize: 2,
    });
    const services = await cluster.listServices();
    expect(services.map((s) => `${s.metadata.namespace}/${s.metadata.name}`)).toEqual(
      expect.arrayContaining(['default/kubernetes', 'kube-system/kube-dns']),
    );
    const all = await cluster.listConfigMaps();
    const kubeSystem = await cluster.listConfigMaps('kube-system');
    expect(kubeSystem.every((cm) => cm.metadata.namespace === 'kube-system')).toBe(true);
    expect(all.map((cm) => `${cm.metadata.namespace}/${cm.metadata.name}`)).toContain(
      'kube-system/kube-proxy',
    );
    expect(all.length).toBeGreaterThanOrEqual(kubeSystem.length);
    const pods = await cluster.listPods('spec.hostNetwork=true');
    expect(pods.every((p) => p.spec?.hostNetwork === true)).toBe(true);
    expect(await cluster.listPrometheusRules()).toEqual(expect.any(Array));
  });

  it('deletes nothing on a dry run: DeleteOptions carry dryRun in the body the server reads', async () => {
    const cluster = new KubeCluster('cluster-a', kubeConfigFor(clusterConfig({ kubeconfig }), []));
    const cm = twin.registry.create(resourceFor('configmaps'), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dry-delete', namespace: 'kube-system' },
      data: { a: 'b' },
    });
    const ds = twin.store.get(resourceFor('daemonsets'), 'kube-system', 'kube-proxy');
    const content = { data: { a: 'b' }, labels: {}, annotations: {} };
    twin.stats.reset();
    const ref = { namespace: 'kube-system', name: 'dry-delete' };
    const previous = { ...content, resourceVersion: cm.metadata.resourceVersion ?? '' };
    await cluster.apply({ kind: 'delete-configmap', ref, previous }, { dryRun: true });
    await cluster.apply(
      {
        kind: 'delete-daemonset',
        ref: { namespace: 'kube-system', name: 'kube-proxy' },
        previous: {
          manifest: ds as unknown as KubeDaemonSet,
          resourceVersion: ds?.metadata.resourceVersion ?? '',
        },
      },
      { dryRun: true },
    );
    expect(await cluster.getConfigMap('kube-system', 'dry-delete')).toBeDefined();
    expect(twin.store.get(resourceFor('daemonsets'), 'kube-system', 'kube-proxy')).toBeDefined();
    const deletes = twin.stats.writes().filter((w) => w.verb === 'delete');
    expect(deletes.map((w) => [w.resource, w.dryRun, w.code])).toEqual([
      ['configmaps', true, 200],
      ['daemonsets', true, 200],
    ]);
    await cluster.apply({ kind: 'delete-configmap', ref, previous });
    expect(await cluster.getConfigMap('kube-system', 'dry-delete')).toBeUndefined();
  });

  it('names unknown contexts and lists the known ones', () => {
    try {
      kubeConfigFor(clusterConfig({ kubeconfig, context: 'prod-a' }), []);
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).code).toBe('KUBECONFIG_INVALID');
      expect((error as AppError).remedy).toBe(
        `Use one of: ${twin.name}; set context in the clusters file.`,
      );
    }
  });
});

describe('KubeCluster failures', () => {
  let hanging: Server;
  let hangingUrl: string;

  beforeAll(async () => {
    // Accepts connections and never answers: the case only a deadline can end.
    hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const address = hanging.address();
    hangingUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });

  it('gives up on a silent API server at the deadline with K8S_TIMEOUT', async () => {
    const cluster = new KubeCluster('cluster-a', kubeConfigAt(hangingUrl), {
      requestTimeoutMs: 300,
    });
    const error = await rejection(cluster.listNodes());
    expect(error.code).toBe('K8S_TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('Cluster cluster-a: list nodes timed out.');
  });

  it('reports a closed port as K8S_UNREACHABLE with what to check', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    await new Promise((resolve) => closed.close(resolve));
    const port = typeof address === 'object' && address ? address.port : 0;
    const cluster = new KubeCluster('cluster-a', kubeConfigAt(`http://127.0.0.1:${port}`));
    const error = await rejection(cluster.serverVersion());
    expect(error.code).toBe('K8S_UNREACHABLE');
    expect(error.remedy).toMatch(/server address in the kubeconfig/);
  });

  it('maps API Status errors by code (403 → K8S_FORBIDDEN with the RBAC remedy)', async () => {
    const forbidding = createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          message:
            'nodes is forbidden: User "system:serviceaccount:pm:pm" cannot list resource "nodes"',
          reason: 'Forbidden',
          code: 403,
        }),
      );
    });
    await new Promise<void>((resolve) => forbidding.listen(0, '127.0.0.1', resolve));
    const address = forbidding.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const cluster = new KubeCluster('cluster-a', kubeConfigAt(`http://127.0.0.1:${port}`));
      const error = await rejection(cluster.listNodes());
      expect(error.code).toBe('K8S_FORBIDDEN');
      expect(error.message).toContain('cannot list resource "nodes"');
      expect(error.remedy).toContain('deploy/rbac.yaml');
    } finally {
      await new Promise((resolve) => forbidding.close(resolve));
    }
  });

  it('treats a PrometheusRule CRD that is not installed as "no rules", not an error', async () => {
    const bare = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}',
      );
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const address = bare.address();
    try {
      const port = typeof address === 'object' && address ? address.port : 0;
      const cluster = new KubeCluster('cluster-a', kubeConfigAt(`http://127.0.0.1:${port}`));
      expect(await cluster.listPrometheusRules()).toBeUndefined();
      expect((await rejection(cluster.listServices())).code).toBe('K8S_NOT_FOUND');
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('loads a kubeconfig file that is missing or broken as KUBECONFIG_INVALID', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pm-kc-'));
    try {
      await writeFile(join(dir, 'bad.yaml'), 'clusters: [');
      for (const path of [join(dir, 'bad.yaml'), join(dir, 'missing.yaml')]) {
        expect(() => kubeConfigFor(clusterConfig({ kubeconfig: path }), [])).toThrow(
          /cannot load kubeconfig/,
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

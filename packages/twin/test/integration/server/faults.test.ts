// API faults end to end: the /twin/faults and /twin/stats admin endpoints, kubectl retrying 429s,
// client-node seeing seeded 503s, latency, watch drops, and the host-fault hook route.
import { Agent, get as httpGet } from 'node:http';
import { ApiException, CoreV1Api, KubeConfig, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/server/admin/prng.js';
import type { HostFault } from '../../../src/scenario/schema.js';
import type { Harness } from './harness.js';
import { kubectlStream, startHarness } from './harness.js';

let h: Harness;
let core: CoreV1Api;
const hostFaults = new Map<string, HostFault[]>([['cp-1', []]]);

async function admin(method: string, path: string, body?: unknown) {
  const res = await fetch(`${h.url}/twin${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  h = await startHarness({
    faults: [{ kind: 'latency', ms: 1, resources: ['leases'] }],
    setHostFaults: (node, faults) => {
      if (!hostFaults.has(node)) return false;
      hostFaults.set(node, faults);
      return true;
    },
    getHostFaults: (node) => hostFaults.get(node),
  });
  const kc = new KubeConfig();
  kc.loadFromString(h.kubeconfigYaml);
  core = kc.makeApiClient(CoreV1Api);
});

afterAll(async () => {
  await h.close();
});

describe('the /twin/faults endpoint', () => {
  it('starts with the scenario faults and round-trips PUT, POST and DELETE', async () => {
    const initial = await admin('GET', '/faults');
    expect(initial.body).toMatchObject({
      faults: [{ kind: 'latency', ms: 1, resources: ['leases'] }],
      seed: 'kubeadm-ipvs',
    });
    const put = await admin('PUT', '/faults?seed=7', [{ kind: 'error', status: 500, rate: 0.1 }]);
    expect(put.body).toMatchObject({
      faults: [{ kind: 'error', status: 500, rate: 0.1 }],
      seed: 7,
    });
    const post = await admin('POST', '/faults', { kind: 'watch-drop', everySeconds: 30 });
    expect((post.body['faults'] as unknown[]).length).toBe(2);
    expect((await admin('GET', '/faults')).body['faults']).toEqual(post.body['faults']);
    expect((await admin('DELETE', '/faults')).body['faults']).toEqual([]);
  });

  it('validates with the scenario schema and answers Status errors', async () => {
    const bad = await admin('PUT', '/faults', [{ kind: 'error', status: 404, rate: 1 }]);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(bad.body['message']).toMatch(/^invalid faults: faults\[0\]\.status/);
    expect((await admin('PATCH', '/faults', [])).status).toBe(405);
    expect((await admin('GET', '/nothing')).status).toBe(404);
    expect((await admin('GET', '/scenario')).body['kind']).toBe('Scenario');
  });
});

describe('fault injection', () => {
  beforeEach(async () => {
    await admin('DELETE', '/faults');
    await admin('DELETE', '/stats');
  });

  it('never faults discovery, /version or the admin endpoints', async () => {
    await admin('PUT', '/faults', [{ kind: 'error', status: 503, rate: 1 }]);
    expect((await fetch(`${h.url}/version`)).status).toBe(200);
    expect((await fetch(`${h.url}/api`)).status).toBe(200);
    expect((await fetch(`${h.url}/openapi/v3`)).status).toBe(200);
    expect((await fetch(`${h.url}/api/v1/nodes`)).status).toBe(503);
    expect((await admin('GET', '/faults')).status).toBe(200);
  });

  it('lets kubectl retry 429s until one passes', async () => {
    // Seed 42 draws 0.60, 0.45, 0.85: two throttles at rate 0.7, then the real answer.
    await admin('PUT', '/faults?seed=42', [
      {
        kind: 'throttle',
        rate: 0.7,
        retryAfterSeconds: 0,
        verbs: ['get'],
        resources: ['configmaps'],
      },
    ]);
    const r = await h.kubectl('get', 'cm', 'kube-proxy', '-n', 'kube-system', '-o', 'name');
    expect(r).toMatchObject({ code: 0, stdout: 'configmap/kube-proxy\n' });
    const stats = (await admin('GET', '/stats')).body;
    expect(stats['requests']).toContainEqual({ verb: 'get', resource: 'configmaps', count: 3 });
    expect(stats['injected']).toMatchObject({ throttle: 2 });
  });

  it('makes kubectl report TooManyRequests once its retries run out', async () => {
    await admin('PUT', '/faults', [
      { kind: 'throttle', rate: 1, retryAfterSeconds: 0, resources: ['configmaps'] },
    ]);
    const r = await h.kubectl('get', 'cm', 'kube-proxy', '-n', 'kube-system');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (TooManyRequests)');
    const res = await fetch(`${h.url}/api/v1/namespaces/kube-system/configmaps/kube-proxy`);
    expect(res.headers.get('retry-after')).toBe('0');
  });

  it('gives client-node a stable number of 503s for a fixed seed', async () => {
    const rate = 0.3;
    const n = 60;
    await admin('PUT', '/faults?seed=42', [
      { kind: 'error', status: 503, rate, verbs: ['get'], resources: ['configmaps'] },
    ]);
    let failures = 0;
    for (let i = 0; i < n; i += 1) {
      try {
        await core.readNamespacedConfigMap({ name: 'kube-proxy', namespace: 'kube-system' });
      } catch (error) {
        expect(error).toBeInstanceOf(ApiException);
        expect((error as ApiException<string>).code).toBe(503);
        failures += 1;
      }
    }
    const expected = Array.from({ length: n }, seededRandom(42)).filter((x) => x < rate).length;
    expect(failures).toBe(expected);
    expect(failures).toBe(22);
    // Out of scope: lists are not touched.
    await core.listNamespacedConfigMap({ namespace: 'kube-system' });
  });

  it('delays requests in scope by the latency', async () => {
    await admin('PUT', '/faults', [
      { kind: 'latency', ms: 300, verbs: ['get'], resources: ['nodes'] },
    ]);
    const start = Date.now();
    await core.readNode({ name: 'cp-1' });
    expect(Date.now() - start).toBeGreaterThanOrEqual(290);
  });

  it('answers writes 409 Conflict without writing, so kubectl reports it and a re-read sees no change', async () => {
    await admin('PUT', '/faults', [{ kind: 'conflict', rate: 1, resources: ['nodes'] }]);
    const before = await core.readNode({ name: 'cp-1' });
    const r = await h.kubectl('label', 'node', 'cp-1', 'twin-test=1');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (Conflict)');
    expect(r.stderr).toContain('the object has been modified');
    const after = await core.readNode({ name: 'cp-1' });
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    expect(after.metadata?.labels?.['twin-test']).toBeUndefined();
    expect((await admin('GET', '/stats')).body['injected']).toMatchObject({ conflict: 1 });
  });

  // client-node 2 fetches through undici, which names a connection the peer closed UND_ERR_SOCKET
  // (its cause); node-fetch (client-node 1) passed the socket's ECONNRESET through.
  it('resets connections: client-node sees the dropped connection and nothing is written', async () => {
    await admin('PUT', '/faults', [
      { kind: 'reset', rate: 1, verbs: ['get'], resources: ['nodes'] },
    ]);
    const error = await core.readNode({ name: 'cp-1' }).then(
      () => undefined,
      (e: unknown) => e as { code?: string; cause?: { code?: string } },
    );
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(error?.code ?? error?.cause?.code);
    await core.listNode();
    expect((await admin('GET', '/stats')).body['injected']).toMatchObject({ reset: 1 });
  });

  it('drops watches so kubectl get -w ends and client-node is told', async () => {
    await admin('PUT', '/faults', [{ kind: 'watch-drop', everySeconds: 1, resources: ['pods'] }]);
    const started = Date.now();
    const run = kubectlStream(h.env, 'get', 'pods', '-w', '-n', 'kube-system');
    expect(await run.exit).toBe(0);
    expect(Date.now() - started).toBeLessThan(6000);
    const kc = new KubeConfig();
    kc.loadFromString(h.kubeconfigYaml);
    const done = await new Promise<unknown>((resolve) => {
      void new Watch(kc).watch('/api/v1/pods', {}, () => undefined, resolve);
    });
    expect(done).toBeNull();
    expect((await admin('GET', '/stats')).body['injected']).toMatchObject({ watchDrop: 2 });
  });
});

describe('the /twin/stats and /twin/hosts endpoints', () => {
  it('counts resource requests by verb and resource and resets', async () => {
    await admin('DELETE', '/stats');
    await core.listNode();
    await core.listNode();
    await core.readNamespace({ name: 'default' });
    await fetch(`${h.url}/version`);
    const stats = (await admin('GET', '/stats')).body;
    expect(stats).toMatchObject({ total: 3, nonResource: 1 });
    expect(stats['requests']).toEqual([
      { verb: 'get', resource: 'namespaces', count: 1 },
      { verb: 'list', resource: 'nodes', count: 2 },
    ]);
    expect((await admin('DELETE', '/stats')).body).toMatchObject({ total: 0, requests: [] });
  });

  it('counts the TCP connections it accepted, so connection reuse can be measured', async () => {
    h.api.stats.reset();
    const get = (agent: Agent | false): Promise<void> =>
      new Promise((resolve, reject) => {
        httpGet(`${h.url}/version`, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        }).on('error', reject);
      });
    // No agent: a connection per request.
    await get(false);
    await get(false);
    expect(h.api.stats.connections()).toBe(2);
    // One keep-alive agent: the second request reuses the first one's connection.
    const agent = new Agent({ keepAlive: true });
    await get(agent);
    await get(agent);
    agent.destroy();
    expect(h.api.stats.connections()).toBe(3);
    expect((await admin('GET', '/stats')).body['connections']).toBeGreaterThanOrEqual(3);
    expect((await admin('DELETE', '/stats')).body).toMatchObject({ connections: 0 });
  });

  it('routes host faults to the node model hooks', async () => {
    const put = await admin('PUT', '/hosts/cp-1/faults', ['not-ready']);
    expect(put).toEqual({ status: 200, body: { node: 'cp-1', faults: ['not-ready'] } });
    expect(hostFaults.get('cp-1')).toEqual(['not-ready']);
    expect((await admin('GET', '/hosts/cp-1/faults')).body['faults']).toEqual(['not-ready']);
    expect((await admin('DELETE', '/hosts/cp-1/faults')).body['faults']).toEqual([]);
    expect((await admin('PUT', '/hosts/nx/faults', [])).body['message']).toBe(
      'nodes "nx" not found',
    );
    expect((await admin('PUT', '/hosts/cp-1/faults', ['melt'])).status).toBe(400);
  });

  it('is 404 while no node model provides the hooks', async () => {
    const bare = await startHarness();
    try {
      const res = await fetch(`${bare.url}/twin/hosts/cp-1/faults`, { method: 'PUT', body: '[]' });
      expect(res.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

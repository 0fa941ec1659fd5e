// A write the API server answers 409 is re-read and retried, bounded, and only while the object
// is still as the plan read it; other 4xx answers are final with a typed message; every client
// of a cluster in the process shares one client-side rate limit. Against the twin's injected
// conflict faults, with the real client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreV1Api } from '@kubernetes/client-node';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { KubeCluster } from '../../../src/adapters/kubernetes/cluster-client.js';
import { kubeConfigFor } from '../../../src/adapters/kubernetes/kubeconfig.js';
import { ClusterGate, clusterGate } from '../../../src/adapters/kubernetes/rate-limit.js';
import { clusterConfig } from '../../../src/config.js';
import { AppError } from '../../../src/errors.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LABEL = 'proxy-migrate.io/mode';

describe('Kubernetes API conflicts, rejections and the rate limit', () => {
  let twin: Twin;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    twin = await startTwin({ scenario: 'kubeadm-ipvs' });
    dir = await mkdtemp(join(tmpdir(), 'pm-conflict-'));
    kubeconfig = join(dir, 'kubeconfig.yaml');
    await twin.writeKubeconfig(kubeconfig);
  });
  afterAll(async () => {
    await twin.close();
    await rm(dir, { recursive: true, force: true });
  });

  const kc = () =>
    kubeConfigFor(clusterConfig({ name: 'cluster-c', kubeconfig, context: twin.name }), []);
  const cluster = (gate = new ClusterGate('cluster-c', { qps: 1_000, burst: 1_000 })) =>
    new KubeCluster('cluster-c', kc(), { gate });
  const nodeWrites = () =>
    twin.stats.writes().filter((w) => w.resource === 'nodes' && w.name === 'blue-1');
  const labelOf = async (node: string) =>
    (await cluster().getNode(node))?.metadata.labels?.[LABEL] ?? null;

  it('re-reads and retries a label write through a 409 storm, and ends labelled', async () => {
    twin.stats.reset();
    twin.faults.resetCounts();
    // Seed storm-1 draws 0.35, 0.23, 0.92: two 409s, then the write goes through.
    twin.faults.replace([{ kind: 'conflict', rate: 0.6, resources: ['nodes'] }], 'storm-1');
    const gate = new ClusterGate('cluster-c', { qps: 1_000, burst: 1_000 });
    const result = await cluster(gate).apply({
      kind: 'label-node',
      node: 'blue-1',
      key: LABEL,
      value: 'switching',
      previous: null,
    });
    const injected = twin.faults.injected.conflict;
    twin.faults.clear();
    expect(result.status).toBe('applied');
    expect(await labelOf('blue-1')).toBe('switching');
    const codes = nodeWrites().map((w) => w.code);
    // Some 409s, then the one write that went through; each retry counted as a conflict.
    expect(injected).toBe(2);
    expect(codes).toEqual([409, 409, 200]);
    expect(gate.stats().retries.conflict).toBe(2);
  });

  it('gives up on an endless 409 storm after 5 attempts, as K8S_CONFLICT, having written nothing', async () => {
    twin.stats.reset();
    twin.faults.replace([{ kind: 'conflict', rate: 1, resources: ['nodes'] }], 'wall');
    const started = Date.now();
    const error = await cluster()
      .apply({ kind: 'unlabel-node', node: 'blue-1', key: LABEL, previous: 'switching' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    twin.faults.clear();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('K8S_CONFLICT');
    expect((error as AppError).message).toContain('the object has been modified');
    expect(nodeWrites().map((w) => w.code)).toEqual([409, 409, 409, 409, 409]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await labelOf('blue-1')).toBe('switching');
  });

  it('re-reads and retries a write answered 503 or cut off, which may have hidden a write', async () => {
    twin.stats.reset();
    twin.faults.resetCounts();
    // storm-2 draws 0.19 (a 503), then 0.84 and 0.38 (a reset): the third attempt writes.
    twin.faults.replace(
      [
        { kind: 'error', status: 503, rate: 0.3, verbs: ['patch'], resources: ['nodes'] },
        { kind: 'reset', rate: 0.5, verbs: ['patch'], resources: ['nodes'] },
      ],
      'storm-2',
    );
    const gate = new ClusterGate('cluster-c', { qps: 1_000, burst: 1_000 });
    const result = await cluster(gate).apply({
      kind: 'label-node',
      node: 'green-1',
      key: LABEL,
      value: 'switching',
      previous: null,
    });
    const injected = twin.faults.injected;
    twin.faults.clear();
    expect(result.status).toBe('applied');
    expect(await labelOf('green-1')).toBe('switching');
    expect(injected).toMatchObject({ error: 1, reset: 1 });
    expect(gate.stats().retries).toMatchObject({ 'server-error': 1, connection: 1 });
  });

  it('does not retry over a change the plan did not expect: someone else relabelled the node', async () => {
    // The plan read blue-1 unlabelled; someone else labels it before the write, which gets 409.
    await kc()
      .makeApiClient(CoreV1Api)
      .patchNode({
        name: 'blue-1',
        body: [
          { op: 'add', path: `/metadata/labels/${LABEL.replace('/', '~1')}`, value: 'theirs' },
        ],
      });
    twin.stats.reset();
    twin.faults.replace([{ kind: 'conflict', rate: 1, verbs: ['patch'], resources: ['nodes'] }]);
    const error = await cluster()
      .apply({ kind: 'label-node', node: 'blue-1', key: LABEL, value: 'nftables', previous: null })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    twin.faults.clear();
    expect((error as AppError).code).toBe('K8S_CONFLICT');
    expect((error as AppError).message).toContain('planned on (none), now theirs');
    // One write (the 409), and no second one once the re-read showed someone else's value.
    expect(nodeWrites().map((w) => w.code)).toEqual([409]);
    expect(await labelOf('blue-1')).toBe('theirs');
  });

  it('holds a dry run’s retries to nothing it never wrote: its previous is the plan’s, not the node’s', async () => {
    // A plan's server-side dry run labels nftables on top of a switching label it never wrote.
    twin.faults.replace([{ kind: 'conflict', rate: 0.6, resources: ['nodes'] }], 'storm-1');
    const result = await cluster().apply(
      { kind: 'label-node', node: 'blue-2', key: LABEL, value: 'nftables', previous: 'switching' },
      { dryRun: true },
    );
    twin.faults.clear();
    expect(result.status).toBe('applied');
    expect(await labelOf('blue-2')).toBeNull();
  });

  it('answers another 4xx as K8S_REJECTED, final: one request, the server’s reason named', async () => {
    twin.stats.reset();
    const error = await cluster()
      .apply({
        kind: 'label-node',
        node: 'blue-1',
        key: LABEL,
        value: 'not a valid label value!',
        previous: 'theirs',
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('K8S_REJECTED');
    expect((error as AppError).retryable).toBe(false);
    expect((error as AppError).message).toMatch(/HTTP 422 Invalid/);
    expect((error as AppError).remedy).toMatch(/Not retried/);
    expect(nodeWrites()).toHaveLength(1);
  });

  it('shares one rate limit among every client of a cluster in the process', async () => {
    const gate = new ClusterGate('cluster-r', { qps: 20, burst: 5 });
    const a = new KubeCluster('cluster-r', kc(), { gate });
    const b = new KubeCluster('cluster-r', kc(), { gate });
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => (i % 2 === 0 ? a : b).getNode('green-1')),
    );
    const took = Date.now() - started;
    // 25 requests, 5 at once, then 20 a second: about a second, whichever client sent them.
    expect(took).toBeGreaterThanOrEqual(900);
    expect(gate.stats()).toMatchObject({ requests: 25, delayed: 20 });
    // The process keeps one gate per cluster name, whatever builds the clients.
    expect(clusterGate('cluster-r2')).toBe(clusterGate('cluster-r2', { qps: 5, burst: 10 }));
    expect(clusterGate('cluster-r2').rateLimit).toEqual({ qps: 5, burst: 10 });
  });
});

// spec.timings through the wire: two twins of kubeadm-ipvs on manual clocks, one given its
// timings by the scenario header (spec.timings) and one by startTwin({timings}), with different
// values. The real kubectl shows that each setting moves what it names on the simulated clock:
// when a mounted ConfigMap change reaches kube-proxy (it exits on the changed --config file at the
// pod's next kubelet sync), and how long kube-proxy, Ready in nftables mode with IPVS already
// cleaned up, routes nothing before its first sync.
//
// Sources: the kubelet's syncFrequency (pkg/kubelet/apis/config/v1beta1/defaults.go, 1m) is when a
// pod's volumes are rewritten; kube-proxy's first sync waits for the informers and then
// minSyncPeriod (pkg/proxy/apis/config/v1alpha1/defaults.go, 1s); the nftables proxier's start
// runs the IPVS/iptables cleanup before its first sync (cmd/kube-proxy/app/server_linux.go
// platformCleanup, then the proxier's SyncLoop).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock, Twin } from '../../../src/index.js';
import { createManualClock, startTwin } from '../../../src/index.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlOk, kubectlWith, rows } from '../../../src/testing/kubectl.js';
import { writeScenarioVariant } from '../kubelet/scenario-variant.js';

interface Rig {
  twin: Twin;
  clock: ManualClock;
  bootMs: number;
  kubectl: Kubectl;
  ok: (...args: string[]) => Promise<string>;
  configMapSyncMs: number;
  firstSyncMs: number;
  podStartMs: number;
  dir: string;
}

const ns = ['-n', 'kube-system'];
const service = 'http://10.104.27.183/';
let dir: string;
const rigs: Rig[] = [];

async function rig(
  name: string,
  timings: {
    configMapSyncSeconds: number;
    kubeProxyFirstSyncSeconds: number;
    podStartSeconds: number;
  },
  via: 'scenario' | 'options',
): Promise<Rig> {
  const clock = createManualClock();
  const bootMs = clock.now();
  const sub = join(dir, name);
  await mkdir(sub);
  const scenario =
    via === 'scenario'
      ? await writeScenarioVariant(sub, 'kubeadm-ipvs', {
          spec: `  timings: { configMapSyncSeconds: ${timings.configMapSyncSeconds}, kubeProxyFirstSyncSeconds: ${timings.kubeProxyFirstSyncSeconds}, podStartSeconds: ${timings.podStartSeconds} }\n`,
        })
      : 'kubeadm-ipvs';
  const twin = await startTwin({
    scenario,
    clock,
    ...(via === 'options' ? { timings } : {}),
  });
  await twin.writeKubeconfig(join(sub, 'kubeconfig'));
  const kubectl = kubectlWith(join(sub, 'kubeconfig'), sub, { timeoutMs: 20_000 });
  const r: Rig = {
    twin,
    clock,
    bootMs,
    kubectl,
    ok: kubectlOk(kubectl),
    configMapSyncMs: timings.configMapSyncSeconds * 1000,
    firstSyncMs: timings.kubeProxyFirstSyncSeconds * 1000,
    podStartMs: timings.podStartSeconds * 1000,
    dir: sub,
  };
  rigs.push(r);
  return r;
}

const kubeProxyOn = (r: Rig, node: string): Promise<string> =>
  r.ok(
    ...ns,
    'get',
    'pods',
    '-l',
    'k8s-app=kube-proxy',
    '--field-selector',
    `spec.nodeName=${node}`,
    '-o',
    'jsonpath={.items[0].metadata.name}',
  );

const containerStatus = async (
  r: Rig,
  pod: string,
): Promise<{ restartCount: number; ready: boolean; state: Record<string, unknown> }> =>
  JSON.parse(
    await r.ok(...ns, 'get', 'pod', pod, '-o', 'jsonpath={.status.containerStatuses[0]}'),
  ) as { restartCount: number; ready: boolean; state: Record<string, unknown> };

const exec = (r: Rig, pod: string, ...argv: string[]) =>
  r.kubectl(...ns, 'exec', pod, '--', ...argv);

/** Switches the shared kube-proxy ConfigMap to nftables mode (every kube-proxy will exit). */
async function toNftables(r: Rig): Promise<void> {
  const conf = await r.ok(...ns, 'get', 'cm', 'kube-proxy', '-o', 'jsonpath={.data.config\\.conf}');
  await r.ok(
    ...ns,
    'patch',
    'cm',
    'kube-proxy',
    '--type',
    'merge',
    '-p',
    JSON.stringify({ data: { 'config.conf': conf.replace(/\nmode: [^\n]*/, '\nmode: nftables') } }),
  );
}

/** Steps the clock by `stepMs` until `probe` holds; returns the simulated ms it took. */
async function stepUntil(
  r: Rig,
  what: string,
  probe: () => Promise<boolean>,
  stepMs: number,
  limitMs: number,
): Promise<number> {
  const start = r.clock.now();
  while (!(await probe())) {
    if (r.clock.now() - start >= limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
    r.clock.advance(stepMs);
  }
  return r.clock.now() - start;
}

/** Where the ConfigMap change lands and how long the no-routing window lasts, on one twin. */
async function observe(r: Rig): Promise<{ restartAtMs: number; windowMs: number }> {
  const pod = await kubeProxyOn(r, 'blue-1');
  expect(await kubectlRestarts(r, pod)).toBe(0);
  await toNftables(r);
  // The volume is rewritten at the pod's next sync: the pods were first synced at boot.
  const tick = r.bootMs + r.configMapSyncMs;
  r.clock.advance(tick - 1 - r.clock.now());
  expect(await kubectlRestarts(r, pod)).toBe(0);
  expect((await exec(r, pod, 'ipvsadm', '-Ln')).stdout).toContain('TCP  10.104.27.183:80 rr');
  r.clock.advance(1);
  // kube-proxy exits on the changed file; the kubelet restarts it (1 s of crash backoff).
  await stepUntil(
    r,
    'kube-proxy restarted and Ready',
    async () => {
      const s = await containerStatus(r, pod);
      return s.restartCount === 1 && s.ready && 'running' in s.state;
    },
    100,
    5000,
  );
  const restartAtMs = r.clock.now() - r.bootMs;
  const previous = await r.ok(...ns, 'logs', pod, '--previous');
  expect(previous).toContain("content of the proxy server's configuration file was updated");

  // Ready, in nftables mode, IPVS already cleaned up, and nothing routed until the first sync.
  expect((await exec(r, pod, 'ipvsadm', '-Ln')).stdout.trim().split('\n')).toHaveLength(3);
  const table = async (): Promise<boolean> =>
    (await exec(r, pod, 'nft', 'list', 'table', 'ip', 'kube-proxy')).code === 0;
  expect(await table()).toBe(false);
  expect((await exec(r, pod, 'curl', '-sS', '--max-time', '2', service)).code).toBe(28);
  const windowMs = await stepUntil(r, 'the first nftables sync', table, 500, 20_000);
  const curl = await exec(r, pod, 'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', service);
  expect(curl.stdout).toBe('200');
  return { restartAtMs, windowMs };
}

async function kubectlRestarts(r: Rig, pod: string): Promise<number> {
  return (await containerStatus(r, pod)).restartCount;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-timings-wire-'));
});

afterAll(async () => {
  for (const r of rigs) await r.twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('spec.timings on the simulated clock, seen through kubectl', () => {
  it('moves the ConfigMap sync and kube-proxy’s first sync with the scenario’s settings', async () => {
    const fast = await rig(
      'fast',
      { configMapSyncSeconds: 10, kubeProxyFirstSyncSeconds: 2, podStartSeconds: 3 },
      'scenario',
    );
    const slow = await rig(
      'slow',
      { configMapSyncSeconds: 30, kubeProxyFirstSyncSeconds: 6, podStartSeconds: 8 },
      'options',
    );
    const a = await observe(fast);
    const b = await observe(slow);
    // The change lands at the configured sync, then one second of crash backoff to the restart.
    expect(a.restartAtMs).toBe(10_000 + 1000);
    expect(b.restartAtMs).toBe(30_000 + 1000);
    // The window between the IPVS cleanup and the first nftables sync is the configured delay
    // (stepped in 500 ms, so the first step at or after it).
    expect(a.windowMs).toBe(2000);
    expect(b.windowMs).toBe(6000);
  }, 90_000);

  it('starts a new pod after podStartSeconds, Ready at once without a readiness probe', async () => {
    const [fast, slow] = rigs;
    const seen: number[] = [];
    for (const r of [fast, slow]) {
      if (r === undefined) throw new Error('the first test starts both twins');
      const path = join(r.dir, 'app.json');
      await writeFile(
        path,
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'app', namespace: 'default' },
          spec: {
            nodeName: 'green-1',
            containers: [{ name: 'app', image: 'debian:12', command: ['sleep', '900'] }],
          },
        }),
      );
      await r.ok('create', '-f', path);
      const createdAt = r.clock.now();
      // The kubelet admits the bound pod on its next step: ContainerCreating.
      r.clock.advance(0);
      const row = async (): Promise<string[] | undefined> =>
        rows(await r.ok('get', 'pod', 'app')).find((c) => c[0] === 'app');
      expect((await row())?.slice(1, 3)).toEqual(['0/1', 'ContainerCreating']);
      // The kubelet's status write that starts the container also makes it Ready (no probe:
      // pkg/kubelet/status/generate.go GeneratePodReadyCondition from containerStatus.ready,
      // which prober_manager.go UpdatePodStatus sets true for a running container with none).
      const took = await stepUntil(
        r,
        'the app pod Running and Ready',
        async () => {
          const cells = await row();
          return cells?.[1] === '1/1' && cells[2] === 'Running';
        },
        500,
        20_000,
      );
      expect(took).toBeGreaterThan(0);
      seen.push(r.clock.now() - createdAt);
      const ready = JSON.parse(
        await r.ok('get', 'pod', 'app', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")]}'),
      ) as { status: string; lastTransitionTime: string };
      const startedAt = await r.ok(
        'get',
        'pod',
        'app',
        '-o',
        'jsonpath={.status.containerStatuses[0].state.running.startedAt}',
      );
      expect(ready.status).toBe('True');
      expect(ready.lastTransitionTime).toBe(startedAt);
    }
    expect(seen).toEqual([3000, 8000]);
  }, 60_000);
});

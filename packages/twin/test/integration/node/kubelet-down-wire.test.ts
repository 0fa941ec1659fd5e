// The kubelet-down host fault through the real kubectl, on manual clocks: the node's Lease stops
// being renewed, a deleted kube-proxy pod stays Terminating, no replacement and no new pod ever
// starts there, and the node lifecycle controller marks the node Unknown (NotReady) once the
// node-monitor grace period has passed since it last saw a renewal — 50 s by default on a v1.33
// cluster, or what the scenario's spec.timings says.
//
// Sources: pkg/controller/nodelifecycle/config/v1alpha1/defaults.go (NodeMonitorGracePeriod 50s
// since v1.32, kubernetes#126287; NodeMonitorPeriod 5s); node_lifecycle_controller.go
// tryUpdateNodeHealth (probeTimestamp is when the controller saw the Lease change; after the grace
// period Ready turns Unknown, reason NodeStatusUnknown, "Kubelet stopped posting node status.");
// pkg/controller/daemon/daemon_controller.go podsShouldBeOnNode (a node that still has a daemon
// pod, terminating or not, gets no new one); pkg/registry/core/pod/strategy.go PrepareForCreate
// (a new pod is Pending until a kubelet writes its status).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock, Twin } from '../../../src/index.js';
import { createManualClock, startTwin } from '../../../src/index.js';
import { microTimeMs } from '../../../src/apimachinery/micro-time.js';
import { resolveScenarioPath } from '../../../src/scenario/scenario.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlOk, kubectlWith, rows } from '../../../src/testing/kubectl.js';
import { writeScenarioVariant } from '../kubelet/scenario-variant.js';

interface Rig {
  twin: Twin;
  clock: ManualClock;
  dir: string;
  kubectl: Kubectl;
  ok: (...args: string[]) => Promise<string>;
}

const ns = ['-n', 'kube-system'];
const node = 'green-1';
let dir: string;
const rigs: Rig[] = [];

async function rig(name: string, graceSeconds?: number, version?: string): Promise<Rig> {
  const clock = createManualClock();
  const sub = join(dir, name);
  await mkdir(sub);
  let scenario =
    graceSeconds === undefined
      ? resolveScenarioPath('kubeadm-ipvs')
      : await writeScenarioVariant(sub, 'kubeadm-ipvs', {
          spec: `  timings: { nodeMonitorGracePeriodSeconds: ${graceSeconds} }\n`,
        });
  if (version !== undefined) {
    // The served release (the header's kubernetesVersion) picks the controller's default.
    const text = await readFile(scenario, 'utf8');
    scenario = join(sub, 'versioned.yaml');
    await writeFile(
      scenario,
      text.replace('kubernetesVersion: v1.33.4', `kubernetesVersion: ${version}`),
    );
  }
  const twin = await startTwin({ scenario, clock });
  await twin.writeKubeconfig(join(sub, 'kubeconfig'));
  const kubectl = kubectlWith(join(sub, 'kubeconfig'), sub, { timeoutMs: 20_000 });
  const r = { twin, clock, dir: sub, kubectl, ok: kubectlOk(kubectl) };
  rigs.push(r);
  return r;
}

interface PodItem {
  metadata: { name: string; deletionTimestamp?: string };
  status: { phase?: string; containerStatuses?: unknown[]; conditions?: unknown[] };
}

const podsOn = async (r: Rig, selector: string[]): Promise<PodItem[]> =>
  (
    JSON.parse(
      await r.ok(
        ...ns,
        'get',
        'pods',
        ...selector,
        '--field-selector',
        `spec.nodeName=${node}`,
        '-o',
        'json',
      ),
    ) as { items: PodItem[] }
  ).items;

const nodeStatus = async (r: Rig): Promise<string | undefined> =>
  rows(await r.ok('get', 'node', node)).find((row) => row[0] === node)?.[1];

const renewTime = async (r: Rig): Promise<number> =>
  microTimeMs(
    await r.ok('-n', 'kube-node-lease', 'get', 'lease', node, '-o', 'jsonpath={.spec.renewTime}'),
  );

/** Takes the kubelet down, deletes the node's kube-proxy and creates a pod there; returns when
 * the node went NotReady, in simulated ms after the Lease's last renewal. */
async function downUntilNotReady(
  r: Rig,
  graceMs: number,
): Promise<{ sinceRenewMs: number; oldPod: string }> {
  const put = await fetch(`${r.twin.url}/twin/hosts/${node}/faults`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(['kubelet-down']),
  });
  expect(put.status).toBe(200);
  const renewed = await renewTime(r);
  const [old] = await podsOn(r, ['-l', 'k8s-app=kube-proxy']);
  const oldPod = old?.metadata.name ?? '';
  expect(oldPod).toMatch(/^kube-proxy-/);
  await r.ok(...ns, 'delete', 'pod', oldPod, '--wait=false');
  const manifest = join(r.dir, 'standalone.json');
  await writeFile(
    manifest,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'standalone', namespace: 'kube-system', labels: { app: 'standalone' } },
      spec: {
        nodeName: node,
        containers: [{ name: 'c', image: 'debian:12', command: ['sleep', '900'] }],
      },
    }),
  );
  await r.ok('create', '-f', manifest);

  // Up to the grace period after the last renewal, the node stays Ready.
  r.clock.advance(renewed + graceMs - r.clock.now());
  let status = await nodeStatus(r);
  expect(status).toBe('Ready');
  while (status === 'Ready') {
    if (r.clock.now() - renewed > 120_000) throw new Error(`${node} still Ready after 120 s`);
    r.clock.advance(1000);
    status = await nodeStatus(r);
  }
  expect(status).toBe('NotReady');
  // The Lease never moved again.
  expect(await renewTime(r)).toBe(renewed);
  return { sinceRenewMs: r.clock.now() - renewed, oldPod };
}

async function expectNothingStarted(r: Rig, oldPod: string): Promise<void> {
  // The deleted kube-proxy is still there, Terminating, and the DaemonSet made no other.
  const proxies = await podsOn(r, ['-l', 'k8s-app=kube-proxy']);
  expect(proxies.map((p) => p.metadata.name)).toEqual([oldPod]);
  expect(proxies[0]?.metadata.deletionTimestamp).toEqual(expect.any(String));
  const row = rows(await r.ok(...ns, 'get', 'pod', oldPod)).find((c) => c[0] === oldPod);
  expect(row?.[2]).toBe('Terminating');
  // The new pod was never started: Pending with no status a kubelet would write.
  const [standalone] = await podsOn(r, ['-l', 'app=standalone']);
  expect(standalone?.status.phase).toBe('Pending');
  expect(standalone?.status.containerStatuses).toBeUndefined();
  const table = rows(await r.ok(...ns, 'get', 'pod', 'standalone'));
  expect(table[1]?.slice(0, 3)).toEqual(['standalone', '0/1', 'Pending']);

  const ready = JSON.parse(
    await r.ok('get', 'node', node, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")]}'),
  ) as Record<string, unknown>;
  expect(ready).toMatchObject({
    status: 'Unknown',
    reason: 'NodeStatusUnknown',
    message: 'Kubelet stopped posting node status.',
  });
  const taints = await r.ok('get', 'node', node, '-o', 'jsonpath={.spec.taints[*].key}');
  expect(taints.split(' ')).toContain('node.kubernetes.io/unreachable');
  const events = await r.ok('events', '--for', `node/${node}`);
  expect(events).toMatch(
    /\sNormal\s+NodeNotReady\s+Node\/green-1\s+Node green-1 status is now: NodeNotReady\n/,
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-kubelet-down-wire-'));
});

afterAll(async () => {
  for (const r of rigs) await r.twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('kubelet-down through kubectl', () => {
  it('keeps the old pod Terminating, starts nothing, and turns NotReady after 50 s on v1.33', async () => {
    const r = await rig('default');
    const { sinceRenewMs, oldPod } = await downUntilNotReady(r, 50_000);
    // Seen by the 5 s monitor at most 5 s after the renewal, Unknown at the first pass past the
    // grace period: between 50 and 60 s after the last renewal (stepped by 1 s).
    expect(sinceRenewMs).toBeGreaterThan(50_000);
    expect(sinceRenewMs).toBeLessThanOrEqual(61_000);
    await expectNothingStarted(r, oldPod);
    // Still nothing, well after the grace period (and inside the 300 s unreachable toleration).
    r.clock.advance(120_000);
    await expectNothingStarted(r, oldPod);
  });

  it('follows spec.timings.nodeMonitorGracePeriodSeconds', async () => {
    const r = await rig('grace-20', 20);
    const { sinceRenewMs, oldPod } = await downUntilNotReady(r, 20_000);
    expect(sinceRenewMs).toBeGreaterThan(20_000);
    expect(sinceRenewMs).toBeLessThanOrEqual(31_000);
    await expectNothingStarted(r, oldPod);
  });

  it('takes 40 s, the default before v1.32, on a v1.31 cluster', async () => {
    const r = await rig('v1-31', undefined, 'v1.31.9');
    expect(await r.ok('version', '-o', 'json')).toContain('"gitVersion": "v1.31.9"');
    const { sinceRenewMs, oldPod } = await downUntilNotReady(r, 40_000);
    expect(sinceRenewMs).toBeGreaterThan(40_000);
    expect(sinceRenewMs).toBeLessThanOrEqual(51_000);
    await expectNothingStarted(r, oldPod);
  });
});

// The real kubectl against the twin with its controllers: kube-proxy pods on every node, the
// per-node canary flow (OnDelete first, then a NotIn affinity, then labels), the RollingUpdate
// punishment, rollout status, DaemonSet columns and pod replacement.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveTwin, PodRow } from './live-twin.js';
import { rows } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';
import { dsColumns, proxyPods, settledProxyTable, startLiveTwin } from './live-twin.js';

const nodes = ['blue-1', 'blue-2', 'cp-1', 'green-1', 'green-2', 'legacy-1'];
const notInPatch = JSON.stringify({
  spec: {
    template: {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'proxy-migrate.io/mode', operator: 'NotIn', values: ['nftables'] },
                  ],
                },
              ],
            },
          },
        },
      },
    },
  },
});

let live: LiveTwin;
beforeEach(async () => {
  live = await startLiveTwin();
});
afterEach(async () => {
  await live.close();
});

function byNode(pods: PodRow[], app: string): Record<string, PodRow> {
  return Object.fromEntries(pods.filter((p) => p.app === app).map((p) => [p.node, p]));
}

async function canaryManifest(): Promise<string> {
  const r = await live.kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy', '-o', 'json');
  const ds = JSON.parse(r.stdout) as {
    metadata: unknown;
    status?: unknown;
    spec: { selector: unknown; template: { metadata: unknown; spec: Record<string, unknown> } };
  };
  const labels = { 'k8s-app': 'kube-proxy-nftables' };
  ds.metadata = { name: 'kube-proxy-nftables', namespace: 'kube-system', labels };
  delete ds.status;
  ds.spec.selector = { matchLabels: labels };
  ds.spec.template.metadata = { labels };
  ds.spec.template.spec['nodeSelector'] = { 'proxy-migrate.io/mode': 'nftables' };
  return JSON.stringify(ds);
}

describe('kube-proxy DaemonSet through kubectl', () => {
  it('runs one kube-proxy pod per node, Running 1/1 on the node address', async () => {
    const table = await settledProxyTable(live, 6);
    expect(table.map((row) => row[6]).sort()).toEqual(nodes);
    const cp = table.find((row) => row[6] === 'cp-1')!;
    expect(cp[0]).toMatch(/^kube-proxy-[a-z0-9]{5}$/);
    expect(cp[5]).toBe('10.0.0.10');
    expect(await dsColumns(live, 'kube-proxy')).toEqual(['6', '6', '6', '6', '6']);
    const rollout = await live.kubectl(
      '-n',
      'kube-system',
      'rollout',
      'status',
      'ds/kube-proxy',
      '--timeout=30s',
    );
    expect(rollout.stdout).toContain('daemon set "kube-proxy" successfully rolled out');
  });

  it('moves one node to a canary DaemonSet without restarting any other kube-proxy', async () => {
    await settledProxyTable(live, 6);
    const created = await live.kubectlWithFile('canary.json', await canaryManifest(), 'create');
    expect(created.stdout).toContain('daemonset.apps/kube-proxy-nftables created');
    const strategy = await live.kubectl(
      '-n',
      'kube-system',
      'patch',
      'ds',
      'kube-proxy',
      '-p',
      '{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}',
    );
    expect(strategy.code).toBe(0);
    const before = byNode(await proxyPods(live), 'kube-proxy');
    const affinity = await live.kubectl(
      '-n',
      'kube-system',
      'patch',
      'ds',
      'kube-proxy',
      '--type',
      'strategic',
      '-p',
      notInPatch,
    );
    expect(affinity.stdout).toContain('daemonset.apps/kube-proxy patched');
    // Ten simulated seconds later nothing has restarted: OnDelete waits for deletions.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(byNode(await proxyPods(live), 'kube-proxy')).toEqual(before);
    expect(await dsColumns(live, 'kube-proxy')).toEqual(['6', '6', '6', '0', '6']);
    expect(await dsColumns(live, 'kube-proxy-nftables')).toEqual(['0', '0', '0', '0', '0']);

    expect(
      (await live.kubectl('label', 'node', 'green-1', 'proxy-migrate.io/mode=nftables')).code,
    ).toBe(0);
    const moved = await eventually('the canary on green-1 and the original gone', async () => {
      const pods = await proxyPods(live);
      const canary = byNode(pods, 'kube-proxy-nftables');
      const original = byNode(pods, 'kube-proxy');
      return Object.keys(canary).join() === 'green-1' && !original['green-1'] ? pods : undefined;
    });
    const others = Object.fromEntries(
      Object.entries(before).filter(([node]) => node !== 'green-1'),
    );
    expect(byNode(moved, 'kube-proxy')).toEqual(others);
    await eventually('canary Ready', async () =>
      (await dsColumns(live, 'kube-proxy-nftables')).join() === '1,1,1,1,1' ? true : undefined,
    );
    expect(await dsColumns(live, 'kube-proxy')).toEqual(['5', '5', '5', '0', '5']);

    expect((await live.kubectl('label', 'node', 'green-1', 'proxy-migrate.io/mode-')).code).toBe(0);
    const back = await eventually('the original back on green-1', async () => {
      const pods = await proxyPods(live);
      const original = byNode(pods, 'kube-proxy');
      return original['green-1'] && !byNode(pods, 'kube-proxy-nftables')['green-1']
        ? pods
        : undefined;
    });
    const original = byNode(back, 'kube-proxy');
    expect(original['green-1']!.name).not.toBe(before['green-1']!.name);
    expect(
      Object.fromEntries(Object.entries(original).filter(([node]) => node !== 'green-1')),
    ).toEqual(others);
    // The returning pod runs the patched template; the five untouched ones still run the old one.
    await eventually('green-1 Ready again', async () =>
      (await dsColumns(live, 'kube-proxy')).join() === '6,6,6,1,6' ? true : undefined,
    );
  }, 60_000);

  it('restarts every kube-proxy, one at a time, when the affinity is patched under RollingUpdate', async () => {
    await settledProxyTable(live, 6);
    const before = byNode(await proxyPods(live), 'kube-proxy');
    let worst = 0;
    const isReady = (status: unknown): boolean =>
      ((status as { conditions?: { type: string; status: string }[] }).conditions ?? []).some(
        (c) => c.type === 'Ready' && c.status === 'True',
      );
    const unsubscribe = live.twin.store.subscribe((event) => {
      if (event.resource.plural !== 'pods') return;
      const healthy = live.twin.store
        .list(event.resource, { namespace: 'kube-system' })
        .items.filter(
          (p) =>
            p.metadata.labels?.['k8s-app'] === 'kube-proxy' &&
            p.metadata.deletionTimestamp === undefined &&
            isReady(p['status']),
        );
      worst = Math.max(worst, 6 - healthy.length);
    });
    const patched = await live.kubectl(
      '-n',
      'kube-system',
      'patch',
      'ds',
      'kube-proxy',
      '--type',
      'strategic',
      '-p',
      notInPatch,
    );
    expect(patched.code).toBe(0);
    const rollout = await live.kubectl(
      '-n',
      'kube-system',
      'rollout',
      'status',
      'ds/kube-proxy',
      '--timeout=60s',
    );
    unsubscribe();
    expect(rollout.code).toBe(0);
    expect(rollout.stdout).toContain('daemon set "kube-proxy" successfully rolled out');
    const after = byNode(await proxyPods(live), 'kube-proxy');
    expect(Object.keys(after).sort()).toEqual(nodes);
    for (const node of nodes) expect(after[node]!.uid).not.toBe(before[node]!.uid);
    expect(worst).toBe(1);
    expect(await dsColumns(live, 'kube-proxy')).toEqual(['6', '6', '6', '6', '6']);
    const history = await live.kubectl(
      '-n',
      'kube-system',
      'get',
      'controllerrevisions',
      '-l',
      'k8s-app=kube-proxy',
    );
    expect(
      rows(history.stdout)
        .slice(1)
        .map((row) => row[2])
        .sort(),
    ).toEqual(['1', '2']);
  });

  it('replaces a deleted kube-proxy pod on the same node', async () => {
    const table = await settledProxyTable(live, 6);
    const victim = table.find((row) => row[6] === 'legacy-1')![0]!;
    const deleted = await live.kubectl('-n', 'kube-system', 'delete', 'pod', victim);
    expect(deleted.stdout).toContain(`pod "${victim}" deleted`);
    const after = await settledProxyTable(live, 6);
    const replacement = after.find((row) => row[6] === 'legacy-1')!;
    expect(replacement[0]).not.toBe(victim);
    expect(after.map((row) => row[0])).not.toContain(victim);
  });
});

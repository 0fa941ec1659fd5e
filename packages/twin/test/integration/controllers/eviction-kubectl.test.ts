// PodDisruptionBudgets and pods/eviction through the real kubectl: `kubectl create pdb` (a
// protobuf POST) and its columns, `kubectl drain` (protobuf Evictions) that skips DaemonSet pods,
// retries on 429 and gives up at --timeout, and the eviction answers over plain HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { rows } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';
import type { LiveTwin } from './live-twin.js';
import { startLiveTwin } from './live-twin.js';

const webOnLegacy = 'web-5d8f9c7b6d-p7c4n';
const webOnBlue2 = 'web-5d8f9c7b6d-h2x8r';

let live: LiveTwin | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

async function podNames(twin: LiveTwin, ...args: string[]): Promise<string[]> {
  const r = await twin.kubectl('get', 'pods', ...args, '-o', 'name');
  return r.stdout.split('\n').filter((l) => l !== '');
}

async function pdbRow(twin: LiveTwin): Promise<string[] | undefined> {
  return rows((await twin.kubectl('get', 'pdb')).stdout)[1];
}

function evictionsServed(twin: LiveTwin): number {
  const requests = twin.twin.stats.snapshot()['requests'] as {
    verb: string;
    resource: string;
    count: number;
  }[];
  return requests
    .filter((r) => r.resource === 'pods/eviction' && r.verb === 'create')
    .reduce((n, r) => n + r.count, 0);
}

describe('kubectl create pdb and drain', () => {
  it('creates a budget and prints its columns and status', async () => {
    live = await startLiveTwin();
    const twin = live;
    const created = await twin.kubectl(
      'create',
      'pdb',
      'web',
      '--selector=app=web',
      '--min-available=1',
    );
    expect(created.stdout.trim()).toBe('poddisruptionbudget.policy/web created');
    const table = rows((await twin.kubectl('get', 'pdb')).stdout);
    expect(table[0]).toEqual([
      'NAME',
      'MIN AVAILABLE',
      'MAX UNAVAILABLE',
      'ALLOWED DISRUPTIONS',
      'AGE',
    ]);
    const row = await eventually('one disruption allowed', async () => {
      const r = await pdbRow(twin);
      return r?.[3] === '1' ? r : undefined;
    });
    expect(row.slice(0, 4)).toEqual(['web', '1', 'N/A', '1']);
    const pdb = JSON.parse(
      (await twin.kubectl('get', 'pdb', 'web', '-o', 'json')).stdout,
    ) as KubeObject;
    expect(pdb['status']).toMatchObject({
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
      disruptionsAllowed: 1,
      observedGeneration: 1,
      conditions: [
        expect.objectContaining({
          type: 'DisruptionAllowed',
          status: 'True',
          reason: 'SufficientPods',
        }),
      ],
    });
  });

  it('drains a node: cordons it, evicts its pods and leaves its DaemonSet pod', async () => {
    live = await startLiveTwin();
    const twin = live;
    const proxy = await podNames(
      twin,
      '-n',
      'kube-system',
      '-l',
      'k8s-app=kube-proxy',
      '--field-selector',
      'spec.nodeName=blue-2',
    );
    expect(proxy).toHaveLength(1);
    const r = await twin.kubectl(
      'drain',
      'blue-2',
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--timeout=30s',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l !== '')).toEqual([
      'node/blue-2 cordoned',
      `evicting pod default/${webOnBlue2}`,
      `pod/${webOnBlue2} evicted`,
      'node/blue-2 drained',
    ]);
    expect(r.stderr).toContain(
      `Warning: ignoring DaemonSet-managed Pods: kube-system/${(proxy[0] ?? '').slice('pod/'.length)}`,
    );
    expect(await podNames(twin, '--field-selector', 'spec.nodeName=blue-2')).toEqual([]);
    expect(
      await podNames(twin, '-n', 'kube-system', '--field-selector', 'spec.nodeName=blue-2'),
    ).toEqual(proxy);
    const nodes = rows((await twin.kubectl('get', 'nodes')).stdout);
    expect(nodes.find((n) => n[0] === 'blue-2')?.[1]).toBe('Ready,SchedulingDisabled');
  });

  it('retries an eviction the budget refuses, and succeeds once the budget allows it', async () => {
    live = await startLiveTwin();
    const twin = live;
    await twin.kubectl('create', 'pdb', 'web', '--selector=app=web', '--min-available=2');
    await eventually('the budget counted', async () =>
      (await pdbRow(twin))?.[3] === '0' ? true : undefined,
    );
    const drain = twin.kubectl('drain', 'legacy-1', '--ignore-daemonsets', '--timeout=60s');
    await eventually('a refused eviction', () => (evictionsServed(twin) > 0 ? true : undefined));
    const patched = await twin.kubectl(
      'patch',
      'pdb',
      'web',
      '--type=merge',
      '-p',
      '{"spec":{"minAvailable":1}}',
    );
    expect(patched.code, patched.stderr).toBe(0);
    const r = await drain;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `error when evicting pods/"${webOnLegacy}" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
    );
    expect(r.stdout).toContain(`pod/${webOnLegacy} evicted`);
    expect(r.stdout).toContain('node/legacy-1 drained');
  });

  it('gives up at --timeout while the budget refuses', async () => {
    live = await startLiveTwin();
    const twin = live;
    await twin.kubectl('create', 'pdb', 'web', '--selector=app=web', '--min-available=2');
    await eventually('the budget counted', async () =>
      (await pdbRow(twin))?.[3] === '0' ? true : undefined,
    );
    const r = await twin.kubectl('drain', 'legacy-1', '--ignore-daemonsets', '--timeout=2s');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: unable to drain node "legacy-1" due to error: error when evicting pods/"${webOnLegacy}" -n "default": global timeout reached: 2s, continuing command...`,
    );
    expect(await podNames(twin, '--field-selector', 'spec.nodeName=legacy-1')).toEqual([
      `pod/${webOnLegacy}`,
    ]);
  });
});

describe('pods/eviction over HTTP', () => {
  it('answers 201, 429 with the budget as the cause, and 404', async () => {
    live = await startLiveTwin();
    const twin = live;
    const evict = (name: string): Promise<Response> =>
      fetch(`${twin.twin.url}/api/v1/namespaces/default/pods/${name}/eviction`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name, namespace: 'default' },
        }),
      });
    await twin.kubectl('create', 'pdb', 'web', '--selector=app=web', '--min-available=1');
    await eventually('the budget counted', async () =>
      (await pdbRow(twin))?.[3] === '1' ? true : undefined,
    );
    const ok = await evict(webOnBlue2);
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      code: 201,
    });
    const refused = await evict(webOnLegacy);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(await refused.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      reason: 'TooManyRequests',
      details: {
        causes: [
          {
            reason: 'DisruptionBudget',
            message: expect.stringMatching(
              /^The disruption budget web needs 1 healthy pods and has [12] currently$/,
            ),
          },
        ],
      },
      code: 429,
    });
    const missing = await evict('nope');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      reason: 'NotFound',
      message: 'pods "nope" not found',
    });
  });
});

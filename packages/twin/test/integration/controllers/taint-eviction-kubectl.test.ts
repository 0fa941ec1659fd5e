// Taint-based eviction through kubectl: `kubectl taint … :NoExecute` evicts pods that do not
// tolerate it (not the DaemonSet's), a tolerationSeconds toleration holds its pod that long of
// simulated time, and pods created through the API carry the 300 s not-ready/unreachable
// tolerations the DefaultTolerationSeconds admission plugin adds, which a NotReady node spends.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { eventually } from '../../../src/testing/wait.js';
import type { LiveTwin } from './live-twin.js';
import { startLiveTwin } from './live-twin.js';

const web = 'web-5d8f9c7b6d-h2x8r';

let live: LiveTwin | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

async function exists(twin: LiveTwin, name: string, ...ns: string[]): Promise<boolean> {
  const r = await twin.kubectl(...ns, 'get', 'pod', name, '-o', 'name');
  return r.code === 0;
}

async function proxyOnBlue2(twin: LiveTwin): Promise<string> {
  const r = await twin.kubectl(
    '-n',
    'kube-system',
    'get',
    'pods',
    '-l',
    'k8s-app=kube-proxy',
    '--field-selector',
    'spec.nodeName=blue-2',
    '-o',
    'name',
  );
  return r.stdout.trim();
}

/** Simulated time at which the first change matching `when` reaches the store. */
function firstChangeAt(
  twin: LiveTwin,
  when: (object: KubeObject, plural: string, type: string) => boolean,
): Promise<number> {
  return new Promise((resolve) => {
    const stop = twin.twin.store.subscribe((event) => {
      if (!when(event.object, event.resource.plural, event.type)) return;
      stop();
      resolve(twin.twin.store.clock.now());
    });
  });
}

describe('taint-based eviction through kubectl', () => {
  it('evicts what does not tolerate a NoExecute taint, and keeps the DaemonSet pod', async () => {
    live = await startLiveTwin();
    const twin = live;
    const proxy = await proxyOnBlue2(twin);
    expect(proxy).toMatch(/^pod\/kube-proxy-/);
    const patient = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'patient', namespace: 'default' },
      spec: {
        nodeName: 'blue-2',
        terminationGracePeriodSeconds: 0,
        containers: [{ name: 'c', image: 'busybox:1.36' }],
        tolerations: [
          {
            key: 'example.com/maintenance',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 30,
          },
        ],
      },
    };
    const created = await twin.kubectlWithFile('patient.json', JSON.stringify(patient), 'create');
    expect(created.code, created.stderr).toBe(0);
    await eventually('patient running', async () => {
      const r = await twin.kubectl('get', 'pod', 'patient', '-o', 'jsonpath={.status.phase}');
      return r.stdout === 'Running' ? true : undefined;
    });
    const tainted = firstChangeAt(
      twin,
      (o, plural) =>
        plural === 'nodes' && JSON.stringify(o['spec'] ?? {}).includes('example.com/maintenance'),
    );
    // With no grace period the eviction removes the pod at once: its DELETED event is the moment.
    const evicted = firstChangeAt(
      twin,
      (o, plural, type) => plural === 'pods' && o.metadata.name === 'patient' && type === 'DELETED',
    );
    const r = await twin.kubectl(
      'taint',
      'nodes',
      'blue-2',
      'example.com/maintenance=now:NoExecute',
    );
    expect(r.stdout.trim()).toBe('node/blue-2 tainted');
    await eventually('web evicted', async () => ((await exists(twin, web)) ? undefined : true));
    expect(await proxyOnBlue2(twin)).toBe(proxy);
    await eventually('patient evicted', async () =>
      (await exists(twin, 'patient')) ? undefined : true,
    );
    // 30 s of simulated time, counted from the taint; the real timer can only fire late.
    expect((await evicted) - (await tainted)).toBeGreaterThanOrEqual(29_900);
    const events = await twin.kubectl(
      'get',
      'events',
      '--field-selector',
      'reason=TaintManagerEviction',
      '-o',
      'jsonpath={.items[*].message}',
    );
    expect(events.stdout.split(/(?<=\S) (?=Marking)/)).toEqual(
      expect.arrayContaining([
        `Marking for deletion Pod default/${web}`,
        'Marking for deletion Pod default/patient',
      ]),
    );
  });

  it('gives API-created pods the 300 s tolerations, and evicts them 300 s into NotReady', async () => {
    live = await startLiveTwin(200);
    const twin = live;
    const run = await twin.kubectl(
      'run',
      'plain',
      '--image=busybox:1.36',
      '--restart=Never',
      '--overrides={"spec":{"nodeName":"green-2"}}',
    );
    expect(run.code, run.stderr).toBe(0);
    const pod = JSON.parse(
      (await twin.kubectl('get', 'pod', 'plain', '-o', 'json')).stdout,
    ) as KubeObject;
    expect((pod['spec'] as { tolerations: unknown }).tolerations).toEqual([
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    const notReady = firstChangeAt(
      twin,
      (o, plural) =>
        plural === 'nodes' &&
        o.metadata.name === 'green-2' &&
        JSON.stringify(o['spec'] ?? {}).includes('not-ready'),
    );
    const evicted = firstChangeAt(
      twin,
      (o, plural) =>
        plural === 'pods' &&
        o.metadata.name === 'plain' &&
        o.metadata.deletionTimestamp !== undefined,
    );
    // What the `not-ready` host fault does; this twin runs its controllers without the node model.
    twin.controllers.setNodeReady('green-2', false);
    await eventually('plain evicted', async () =>
      (await exists(twin, 'plain')) ? undefined : true,
    );
    expect((await evicted) - (await notReady)).toBeGreaterThanOrEqual(299_000);
    const proxies = await twin.kubectl(
      '-n',
      'kube-system',
      'get',
      'pods',
      '--field-selector',
      'spec.nodeName=green-2',
      '-o',
      'name',
    );
    expect(proxies.stdout.trim()).toMatch(/^pod\/kube-proxy-/);
  });
});

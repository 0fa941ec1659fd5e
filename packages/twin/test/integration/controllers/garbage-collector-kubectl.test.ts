// `kubectl delete ds --cascade=background|orphan|foreground` against the twin: the garbage
// collector deletes, orphans or waits for a DaemonSet's pods and ControllerRevisions.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/types.js';
import { eventually } from '../../../src/testing/wait.js';
import type { LiveTwin } from './live-twin.js';
import { startLiveTwin } from './live-twin.js';

let live: LiveTwin | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

async function json<T>(twin: LiveTwin, ...args: string[]): Promise<T> {
  const r = await twin.kubectl(...args, '-o', 'json');
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const proxyPods = async (twin: LiveTwin): Promise<KubeObject[]> =>
  (
    await json<{ items: KubeObject[] }>(
      twin,
      '-n',
      'kube-system',
      'get',
      'pods',
      '-l',
      'k8s-app=kube-proxy',
    )
  ).items;

const proxyRevisions = async (twin: LiveTwin): Promise<KubeObject[]> =>
  (await json<{ items: KubeObject[] }>(twin, '-n', 'kube-system', 'get', 'controllerrevisions'))
    .items;

async function sixRunning(twin: LiveTwin): Promise<KubeObject[]> {
  return eventually('six kube-proxy pods', async () => {
    const pods = await proxyPods(twin);
    return pods.length === 6 ? pods : undefined;
  });
}

describe('kubectl delete --cascade', () => {
  it('background: the DaemonSet goes, then its pods and revisions', async () => {
    live = await startLiveTwin();
    const twin = live;
    await sixRunning(twin);
    expect(await proxyRevisions(twin)).toHaveLength(1);
    const r = await twin.kubectl(
      '-n',
      'kube-system',
      'delete',
      'ds',
      'kube-proxy',
      '--cascade=background',
    );
    expect(r.stdout.trim()).toBe('daemonset.apps "kube-proxy" deleted');
    await eventually('kube-proxy pods gone', async () =>
      (await proxyPods(twin)).length === 0 ? true : undefined,
    );
    expect(await proxyRevisions(twin)).toEqual([]);
    const get = await twin.kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy');
    expect(get.stderr.trim()).toBe(
      'Error from server (NotFound): daemonsets.apps "kube-proxy" not found',
    );
  });

  it('orphan: the pods keep running without their owner reference', async () => {
    live = await startLiveTwin();
    const twin = live;
    const before = await sixRunning(twin);
    const r = await twin.kubectl(
      '-n',
      'kube-system',
      'delete',
      'ds',
      'kube-proxy',
      '--cascade=orphan',
    );
    expect(r.stdout.trim()).toBe('daemonset.apps "kube-proxy" deleted');
    const after = await proxyPods(twin);
    expect(after.map((p) => p.metadata.uid).sort()).toEqual(
      before.map((p) => p.metadata.uid).sort(),
    );
    for (const pod of after) {
      expect(pod.metadata.ownerReferences).toBeUndefined();
      expect(pod.metadata.deletionTimestamp).toBeUndefined();
    }
    const revisions = await proxyRevisions(twin);
    expect(revisions).toHaveLength(1);
    expect(revisions[0]?.metadata.ownerReferences).toBeUndefined();
  });

  it('foreground: the DaemonSet stays with the finalizer until its pods are gone', async () => {
    // Pods of `agent` take 100 simulated seconds to stop (2 s real at speed 50).
    live = await startLiveTwin(50, {
      runtime: {
        start: () => ({ ok: true }),
        stop: (pod) => (pod.metadata.labels?.['app'] === 'agent' ? 100_000 : undefined),
      },
    });
    const twin = live;
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: {
            terminationGracePeriodSeconds: 120,
            tolerations: [{ operator: 'Exists' }],
            containers: [{ name: 'agent', image: 'registry.example/agent:1.0' }],
          },
        },
      },
    };
    const created = await twin.kubectlWithFile('agent.json', JSON.stringify(ds), 'create');
    expect(created.code, created.stderr).toBe(0);
    const agents = async (): Promise<KubeObject[]> =>
      (await json<{ items: KubeObject[] }>(twin, 'get', 'pods', '-l', 'app=agent')).items;
    await eventually('six agent pods', async () =>
      (await agents()).length === 6 ? true : undefined,
    );
    const r = await twin.kubectl('delete', 'ds', 'agent', '--cascade=foreground', '--wait=false');
    expect(r.stdout.trim()).toBe('daemonset.apps "agent" deleted');
    const deleting = await json<KubeObject>(twin, 'get', 'ds', 'agent');
    expect(deleting.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(deleting.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const terminating = await eventually('agent pods terminating', async () => {
      const pods = await agents();
      return pods.length === 6 && pods.every((p) => p.metadata.deletionTimestamp)
        ? pods
        : undefined;
    });
    expect(terminating).toHaveLength(6);
    const waited = await twin.kubectl('wait', '--for=delete', 'ds/agent', '--timeout=30s');
    expect(waited.code, waited.stderr).toBe(0);
    // The finalizer went only once the last pod had: none is left now.
    expect(await agents()).toEqual([]);
  });
});

// kubectl rollout history and undo against the twin: they read the DaemonSet's
// ControllerRevisions, so these show the revisions are the real controller's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveTwin } from './live-twin.js';
import { rows } from '../../../src/testing/kubectl.js';
import { settledProxyTable, startLiveTwin } from './live-twin.js';

let live: LiveTwin;
beforeEach(async () => {
  live = await startLiveTwin();
});
afterEach(async () => {
  await live.close();
});

describe('kube-proxy rollout history through kubectl', () => {
  it('keeps ControllerRevisions that kubectl rollout history and undo work from', async () => {
    await settledProxyTable(live, 6);
    const image = JSON.stringify({
      spec: {
        template: {
          spec: {
            containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.33.5' }],
          },
        },
      },
    });
    expect(
      (await live.kubectl('-n', 'kube-system', 'patch', 'ds', 'kube-proxy', '-p', image)).code,
    ).toBe(0);
    const rolled = await live.kubectl(
      '-n',
      'kube-system',
      'rollout',
      'status',
      'ds/kube-proxy',
      '--timeout=60s',
    );
    expect(rolled.stdout).toContain('successfully rolled out');
    const history = await live.kubectl('-n', 'kube-system', 'rollout', 'history', 'ds/kube-proxy');
    expect(
      rows(history.stdout)
        .slice(2)
        .map((row) => row[0]),
    ).toEqual(['1', '2']);
    const undo = await live.kubectl('-n', 'kube-system', 'rollout', 'undo', 'ds/kube-proxy');
    expect(undo.stdout).toContain('daemonset.apps/kube-proxy rolled back');
    await live.kubectl('-n', 'kube-system', 'rollout', 'status', 'ds/kube-proxy', '--timeout=60s');
    // Going back to the first template renumbers its revision, as the real controller does.
    const after = await live.kubectl('-n', 'kube-system', 'rollout', 'history', 'ds/kube-proxy');
    expect(
      rows(after.stdout)
        .slice(2)
        .map((row) => row[0]),
    ).toEqual(['2', '3']);
    const images = await live.kubectl(
      '-n',
      'kube-system',
      'get',
      'pods',
      '-l',
      'k8s-app=kube-proxy',
      '-o',
      'jsonpath={.items[*].spec.containers[0].image}',
    );
    expect(new Set(images.stdout.split(' '))).toEqual(
      new Set(['registry.k8s.io/kube-proxy:v1.33.4']),
    );
  });
});

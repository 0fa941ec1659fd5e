// Pod lifecycle as kubectl shows it: CrashLoopBackOff from the runtime hook, NotReady nodes from
// the `not-ready` host fault, and graceful versus forced deletion.
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveTwin } from './live-twin.js';
import { rows } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';
import { startLiveTwin } from './live-twin.js';

let live: LiveTwin | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

async function proxyRow(twin: LiveTwin, node: string): Promise<string[] | undefined> {
  const r = await twin.kubectl(
    '-n',
    'kube-system',
    'get',
    'pods',
    '-l',
    'k8s-app=kube-proxy',
    '-o',
    'wide',
  );
  return rows(r.stdout).find((row) => row[6] === node);
}

describe('pod lifecycle through kubectl', () => {
  it('shows a crashing kube-proxy in CrashLoopBackOff with its restarts', async () => {
    const twin = await startLiveTwin(50, {
      runtime: {
        start: (pod) =>
          (pod['spec'] as { nodeName?: string }).nodeName === 'legacy-1'
            ? { ok: false, exitCode: 1, reason: 'Error', message: 'cannot set sysctl' }
            : { ok: true },
        stop: () => undefined,
      },
    });
    live = twin;
    // Restarts come at 0 s, 10 s, 20 s, 40 s… (simulated): wait for the second one.
    const row = await eventually('CrashLoopBackOff after two restarts', async () => {
      const r = await proxyRow(twin, 'legacy-1');
      const restarts = Number(/^(\d+) \(\d+s ago\)$/.exec(r?.[3] ?? '')?.[1] ?? 0);
      return r?.[2] === 'CrashLoopBackOff' && restarts >= 2 ? r : undefined;
    });
    expect(row[1]).toBe('0/1');
    const ds = rows(
      (await twin.kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy')).stdout,
    )[1]!;
    expect(ds.slice(1, 6)).toEqual(['6', '6', '5', '6', '5']);
  });

  it('turns a host with the not-ready fault NotReady, and back with setNodeReady', async () => {
    const twin = await startLiveTwin(50, {
      hosts: [{ match: 'green-2', faults: ['not-ready'] }],
    });
    live = twin;
    const nodes = rows((await twin.kubectl('get', 'nodes')).stdout);
    expect(nodes.find((row) => row[0] === 'green-2')?.[1]).toBe('NotReady');
    await eventually('five ready kube-proxy pods', async () => {
      const ds = rows(
        (await twin.kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy')).stdout,
      )[1];
      return ds?.slice(1, 4).join() === '6,6,5' ? true : undefined;
    });
    const ready = await twin.kubectl(
      '-n',
      'kube-system',
      'get',
      'pods',
      '--field-selector',
      'spec.nodeName=green-2',
      '-o',
      'jsonpath={.items[0].status.conditions[?(@.type=="Ready")].status}',
    );
    expect(ready.stdout).toBe('False');
    twin.controllers.setNodeReady('green-2', true);
    const after = rows((await twin.kubectl('get', 'nodes')).stdout);
    expect(after.find((row) => row[0] === 'green-2')?.[1]).toBe('Ready');
  });

  it('keeps a deleted pod Terminating until it stops, unless forced', async () => {
    const twin = await startLiveTwin(2, {
      runtime: { start: () => ({ ok: true }), stop: () => 20_000 },
    });
    live = twin;
    const victim = await eventually('kube-proxy Running on blue-1', async () => {
      const r = await proxyRow(twin, 'blue-1');
      return r?.[1] === '1/1' ? r[0] : undefined;
    });
    const del = await twin.kubectl('-n', 'kube-system', 'delete', 'pod', victim, '--wait=false');
    expect(del.code).toBe(0);
    expect((await proxyRow(twin, 'blue-1'))?.[2]).toBe('Terminating');
    const forced = await twin.kubectl(
      '-n',
      'kube-system',
      'delete',
      'pod',
      victim,
      '--grace-period=0',
      '--force',
    );
    expect(forced.stderr).toContain('Immediate deletion does not wait for confirmation');
    const gone = await twin.kubectl('-n', 'kube-system', 'get', 'pod', victim);
    expect(gone.stderr).toContain('NotFound');
  });
});

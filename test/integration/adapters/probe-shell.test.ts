// Probe pods through the real client-node against the twin: create, wait, exec, clean up.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClusterDirectory } from '../../../src/adapters/kubernetes/directory.js';
import { PROBE_LABEL } from '../../../src/adapters/kubernetes/probe-pod.js';
import { clusterConfig } from '../../../src/config.js';
import { resourceFor, startTwin, type Twin } from '@proxy-migrate/twin';
import { captureLog } from '../../helpers/log-capture.js';

let twin: Twin;
let dir: string;
let directory: KubeClusterDirectory;

const probePods = (): { name: string; run: string | undefined }[] =>
  twin.store
    .list(resourceFor('pods'), { namespace: 'kube-system' })
    .items.filter((p) => p.metadata.labels?.[PROBE_LABEL] === 'true')
    .map((p) => ({
      name: p.metadata.name ?? '',
      run: p.metadata.annotations?.['proxy-migrate.io/run'],
    }));

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: 50 });
  dir = await mkdtemp(join(tmpdir(), 'pm-probe-'));
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  await twin.writeKubeconfig(kubeconfig);
  const cluster = clusterConfig({ name: 'cluster-a', kubeconfig, probe: { image: 'probe:test' } });
  directory = new KubeClusterDirectory(
    { clusters: [cluster], defaultKubeconfigs: [] },
    captureLog().logger,
  );
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('ProbePodShell', () => {
  it('runs argv on the node’s host through one probe pod per node, and removes it on close', async () => {
    const shell = directory.nodeShell('cluster-a', 'pf-test-1');
    const kernel = await shell.run('legacy-1', ['uname', '-r'], { timeoutMs: 10_000 });
    expect(kernel).toEqual({ exitCode: 0, stdout: '5.4.0-80-generic\n', stderr: '' });
    // IPVS mode keeps its Service IPs on the kube-ipvs0 dummy link.
    const link = await shell.run('legacy-1', ['ip', '-j', 'link', 'show', 'kube-ipvs0'], {
      timeoutMs: 10_000,
    });
    expect(link.exitCode).toBe(0);
    expect(JSON.parse(link.stdout)).toEqual([expect.objectContaining({ ifname: 'kube-ipvs0' })]);
    await shell.run('blue-1', ['nft', '--version'], { timeoutMs: 10_000 });
    expect(probePods().map((p) => p.run)).toEqual(['pf-test-1', 'pf-test-1']);
    const pod = twin.store
      .list(resourceFor('pods'), { namespace: 'kube-system' })
      .items.find((p) => p.metadata.labels?.[PROBE_LABEL] === 'true') as
      { spec: Record<string, unknown> } | undefined;
    expect(pod?.spec).toMatchObject({
      hostNetwork: true,
      restartPolicy: 'Never',
      activeDeadlineSeconds: 900,
    });
    await shell.close();
    expect(probePods()).toEqual([]);
  });

  it('reports a non-zero exit code from the exec status, not as an error', async () => {
    const shell = directory.nodeShell('cluster-a', 'pf-test-2');
    try {
      const result = await shell.run('blue-1', ['nft', '-j', 'list', 'table', 'ip', 'kube-proxy'], {
        timeoutMs: 10_000,
      });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('Error: No such file or directory');
      expect((await shell.run('blue-1', ['frobnicate'], { timeoutMs: 10_000 })).exitCode).toBe(127);
    } finally {
      await shell.close();
    }
  });

  it('removes probe pods an earlier, crashed run left behind', async () => {
    const leftover = directory.nodeShell('cluster-a', 'pf-crashed');
    await leftover.run('green-1', ['uname', '-r'], { timeoutMs: 10_000 });
    // The earlier run never closes its shell; its pod finished (activeDeadlineSeconds passed).
    const [stale] = probePods();
    const def = resourceFor('pods');
    const obj = twin.store.get(def, 'kube-system', stale!.name)!;
    twin.store.update(def, { ...obj, status: { ...(obj['status'] as object), phase: 'Failed' } });

    const shell = directory.nodeShell('cluster-a', 'pf-test-3');
    await shell.run('green-2', ['uname', '-r'], { timeoutMs: 10_000 });
    expect(probePods().map((p) => p.run)).toEqual(['pf-test-3']);
    await shell.close();
  });
});

// The whole per-node canary, by hand with kubectl, on the twin with its controllers and node model:
// what the product will automate, and the traps the twin must show when it gets it wrong.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '../../src/index.js';
import {
  kubectlOk,
  kubectlWith,
  type Kubectl,
  type KubectlResult,
} from '../../src/testing/kubectl.js';
import { eventually } from '../../src/testing/wait.js';

let twin: Twin;
let dir: string;
let kubectl: Kubectl;
let ok: (...args: string[]) => Promise<string>;

interface PodRow {
  name: string;
  node: string;
  ready: string;
  status: string;
  labels: Record<string, string>;
}

async function proxyPods(): Promise<PodRow[]> {
  const json = JSON.parse(await ok('-n', 'kube-system', 'get', 'pods', '-o', 'json')) as {
    items: {
      metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
      spec: { nodeName?: string };
      status: {
        containerStatuses?: { ready: boolean; state?: { waiting?: { reason?: string } } }[];
      };
    }[];
  };
  return json.items
    .filter(
      (p) => p.metadata.name.startsWith('kube-proxy') && p.metadata.deletionTimestamp === undefined,
    )
    .map((p) => ({
      name: p.metadata.name,
      node: p.spec.nodeName ?? '',
      ready: p.status.containerStatuses?.[0]?.ready === true ? 'ready' : 'not-ready',
      status: p.status.containerStatuses?.[0]?.state?.waiting?.reason ?? 'Running',
      labels: p.metadata.labels ?? {},
    }));
}

const podOn = async (node: string, app: string): Promise<PodRow | undefined> =>
  (await proxyPods()).find((p) => p.node === node && p.labels['k8s-app'] === app);

const onNode = (pod: string, ...argv: string[]): Promise<KubectlResult> =>
  kubectl('-n', 'kube-system', 'exec', pod, '--', ...argv);

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: 50 });
  dir = await mkdtemp(join(tmpdir(), 'pm-migration-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir);
  ok = kubectlOk(kubectl);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the per-node canary on the twin, by hand', () => {
  it('starts with one Ready kube-proxy per node, running IPVS, as its logs and dataplane show', async () => {
    const pods = await proxyPods();
    expect(pods.map((p) => p.node).sort()).toEqual([
      'blue-1',
      'blue-2',
      'cp-1',
      'green-1',
      'green-2',
      'legacy-1',
    ]);
    expect(pods.every((p) => p.ready === 'ready')).toBe(true);
    const logs = await ok('-n', 'kube-system', 'logs', 'ds/kube-proxy');
    expect(logs).toMatch(/server_linux\.go:\d+\] "Using ipvs Proxier"/);
    const blue1 = (await podOn('blue-1', 'kube-proxy'))!;
    const ipvs = await onNode(blue1.name, 'ipvsadm', '-Ln');
    expect(ipvs.stdout).toMatch(
      /^IP Virtual Server version 1\.2\.1 \(size=4096\)\nProt LocalAddress:Port Scheduler Flags\n/,
    );
    expect(ipvs.stdout).toMatch(/\nTCP {2}10\.104\.27\.183:80 rr\n/);
    const nft = await onNode(blue1.name, 'nft', '-j', 'list', 'table', 'ip', 'kube-proxy');
    expect(nft.code).toBe(1);
    expect(nft.stderr).toContain('Error: No such file or directory');
  });

  it('moves blue-1 to nftables with a second DaemonSet and a label, restarting nothing else', async () => {
    const config = JSON.parse(
      await ok('-n', 'kube-system', 'get', 'cm', 'kube-proxy', '-o', 'json'),
    ) as {
      data: Record<string, string>;
    };
    const nftConfig = (config.data['config.conf'] ?? '')
      .replace(/^mode: .*$/m, 'mode: nftables')
      .replace(/^nodePortAddresses: .*$/m, 'nodePortAddresses: ["0.0.0.0/0"]');
    await writeFile(
      join(dir, 'cm.json'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'kube-proxy-nftables', namespace: 'kube-system' },
        data: { ...config.data, 'config.conf': nftConfig },
      }),
    );
    await ok('apply', '--server-side', '-f', join(dir, 'cm.json'));

    const original = JSON.parse(
      await ok('-n', 'kube-system', 'get', 'ds', 'kube-proxy', '-o', 'json'),
    ) as {
      spec: {
        template: { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
      };
    };
    const podSpec = original.spec.template.spec as {
      volumes: { name: string; configMap?: { name: string } }[];
    };
    podSpec.volumes = podSpec.volumes.map((v) =>
      v.configMap?.name === 'kube-proxy' ? { ...v, configMap: { name: 'kube-proxy-nftables' } } : v,
    );
    await writeFile(
      join(dir, 'ds.json'),
      JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: {
          name: 'kube-proxy-nftables',
          namespace: 'kube-system',
          labels: { 'k8s-app': 'kube-proxy-nftables' },
        },
        spec: {
          selector: { matchLabels: { 'k8s-app': 'kube-proxy-nftables' } },
          updateStrategy: { type: 'OnDelete' },
          template: {
            metadata: { labels: { 'k8s-app': 'kube-proxy-nftables' } },
            spec: {
              ...podSpec,
              nodeSelector: { 'kubernetes.io/os': 'linux', 'proxy-migrate.io/mode': 'nftables' },
            },
          },
        },
      }),
    );
    await ok('apply', '--server-side', '-f', join(dir, 'ds.json'));

    // OnDelete first: the affinity patch is a template change and must restart nothing.
    const before = new Set((await proxyPods()).map((p) => p.name));
    await ok(
      '-n',
      'kube-system',
      'patch',
      'ds',
      'kube-proxy',
      '--type',
      'merge',
      '-p',
      '{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}',
    );
    await ok(
      '-n',
      'kube-system',
      'patch',
      'ds',
      'kube-proxy',
      '-p',
      JSON.stringify({
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
      }),
    );
    await ok('label', 'node', 'blue-1', 'proxy-migrate.io/mode=nftables');

    const canary = await eventually('a Ready canary kube-proxy on blue-1', async () => {
      const pod = await podOn('blue-1', 'kube-proxy-nftables');
      const old = await podOn('blue-1', 'kube-proxy');
      return pod?.ready === 'ready' && old === undefined ? pod : undefined;
    });
    const after = await proxyPods();
    // Every other node kept its original pod: nothing else restarted.
    expect(after.filter((p) => p.node !== 'blue-1').every((p) => before.has(p.name))).toBe(true);

    // Ready comes at the container's start; kube-proxy programs its table at its first sync.
    const listed = await eventually('the canary’s first sync', async () => {
      const r = await onNode(canary.name, 'nft', '-j', 'list', 'table', 'ip', 'kube-proxy');
      return r.code === 0 ? r.stdout : undefined;
    });
    const table = JSON.parse(listed) as {
      nftables: Record<string, { name?: string; elem?: unknown[] }>[];
    };
    expect(Object.keys(table.nftables[0] ?? {})).toEqual(['metainfo']);
    expect(table.nftables.some((o) => o['table']?.name === 'kube-proxy')).toBe(true);
    expect(table.nftables.find((o) => o['set']?.name === 'cluster-ips')?.['set']?.elem).toEqual(
      expect.arrayContaining(['10.96.0.1', '10.96.0.10', '10.104.27.183', '10.109.88.41']),
    );
    expect((await onNode(canary.name, 'ipvsadm', '-Ln')).stdout.trim().split('\n')).toHaveLength(3);
    const link = await onNode(canary.name, 'ip', '-j', 'link', 'show', 'kube-ipvs0');
    // kubectl adds its own "command terminated with exit code 1" after the tool's stderr.
    expect([link.code, link.stdout]).toEqual([1, '']);
    expect(link.stderr).toMatch(/^Device "kube-ipvs0" does not exist\.\n/);
    expect(await ok('-n', 'kube-system', 'logs', canary.name)).toMatch(/"Using nftables Proxier"/);
    const clusterIP = await onNode(
      canary.name,
      'curl',
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--max-time',
      '2',
      'http://10.104.27.183:80/',
    );
    expect([clusterIP.code, clusterIP.stdout]).toEqual([0, '200']);
  });

  it('shows the kernel trap on legacy-1: IPVS cleaned up first, then a crash loop with the real error', async () => {
    await ok('label', 'node', 'legacy-1', 'proxy-migrate.io/mode=nftables');
    const pod = await eventually('the canary on legacy-1 crash-looping', async () => {
      const p = await podOn('legacy-1', 'kube-proxy-nftables');
      return p?.status === 'CrashLoopBackOff' ? p : undefined;
    });
    const logs = await kubectl('-n', 'kube-system', 'logs', pod.name, '--previous');
    expect(logs.stdout).toContain(
      '"Error running ProxyServer" err="unable to create proxier: unable to create ipv4 proxier: kube-proxy in nftables mode requires kernel 5.13 or later"',
    );
    // A host-network pod on the node sees no Service routing at all.
    await writeFile(
      join(dir, 'probe.json'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'probe-legacy-1', namespace: 'kube-system' },
        spec: {
          nodeName: 'legacy-1',
          hostNetwork: true,
          containers: [
            {
              name: 'probe',
              image: 'probe',
              command: ['sleep', '600'],
              // ipvsadm and nft need CAP_NET_ADMIN, as on a real node.
              securityContext: { capabilities: { add: ['NET_ADMIN'] } },
            },
          ],
        },
      }),
    );
    await ok('create', '-f', join(dir, 'probe.json'));
    await eventually('the probe pod Running', async () => {
      const pod = JSON.parse(
        await ok('-n', 'kube-system', 'get', 'pod', 'probe-legacy-1', '-o', 'json'),
      ) as { status: { phase?: string } };
      return pod.status.phase === 'Running' ? true : undefined;
    });
    expect(
      (await onNode('probe-legacy-1', 'ipvsadm', '-Ln')).stdout.trim().split('\n'),
    ).toHaveLength(3);
    expect((await onNode('probe-legacy-1', 'nft', 'list', 'table', 'ip', 'kube-proxy')).code).toBe(
      1,
    );
    const curl = await onNode(
      'probe-legacy-1',
      'curl',
      '-sS',
      '--max-time',
      '2',
      'http://10.104.27.183:80/',
    );
    expect(curl.code).not.toBe(0);
  });

  it('rolls legacy-1 back by removing the label: the original kube-proxy returns and IPVS is back', async () => {
    await ok('label', 'node', 'legacy-1', 'proxy-migrate.io/mode-');
    await eventually('the original kube-proxy Ready on legacy-1', async () => {
      const p = await podOn('legacy-1', 'kube-proxy');
      return p?.ready === 'ready' && (await podOn('legacy-1', 'kube-proxy-nftables')) === undefined
        ? p
        : undefined;
    });
    // Ready first, IPVS programmed at kube-proxy's first sync a moment later.
    await eventually('IPVS back after the first sync', async () => {
      const r = await onNode('probe-legacy-1', 'ipvsadm', '-Ln');
      return /\nTCP {2}10\.104\.27\.183:80 rr\n/.test(r.stdout) ? true : undefined;
    });
    const curl = await onNode(
      'probe-legacy-1',
      'curl',
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--max-time',
      '2',
      'http://10.104.27.183:80/',
    );
    expect(curl.stdout).toBe('200');
  });
});

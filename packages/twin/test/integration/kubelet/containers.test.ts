// kubectl exec lands in a container, not on the host: the kube-proxy image's nft, a probe image's
// own nft (spec.images), the host's only through chroot into a hostPath mount, a host without
// nft, a pod's own network namespace, and NET_ADMIN for the netfilter tools.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../../src/index.js';
import { startTwin } from '../../../src/index.js';
import type { Kubectl } from '../../../src/testing/kubectl.js';
import { kubectlOk, kubectlWith } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';
import { writeScenarioVariant } from './scenario-variant.js';

let twin: Twin;
let dir: string;
let kubectl: Kubectl;
const ns = ['-n', 'kube-system'];

/** A pod on `node`; `container` merges into its only container, `spec` into the pod spec. */
function podJson(name: string, node: string, spec: object, container: object): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'kube-system' },
    spec: {
      nodeName: node,
      containers: [
        {
          name: 'c',
          image: 'ghcr.io/proxy-migrate/probe:0.1.0',
          command: ['sleep', '900'],
          ...container,
        },
      ],
      ...spec,
    },
  });
}

const probeSpec = {
  hostNetwork: true,
  volumes: [{ name: 'host-root', hostPath: { path: '/', type: 'Directory' } }],
};
const probeContainer = {
  securityContext: { capabilities: { drop: ['ALL'], add: ['NET_ADMIN', 'SYS_CHROOT'] } },
  volumeMounts: [{ name: 'host-root', mountPath: '/host', readOnly: true }],
};

async function create(name: string, node: string, spec: object, container: object): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  const path = join(dir, `${name}.json`);
  await writeFile(path, podJson(name, node, spec, container));
  await kubectlOk(kubectl)('create', '-f', path);
  await eventually(`${name} Running`, async () => {
    const r = await kubectl(...ns, 'get', 'pod', name, '-o', 'jsonpath={.status.phase}');
    return r.stdout === 'Running' ? true : undefined;
  });
}

const exec = (pod: string, ...argv: string[]) => kubectl(...ns, 'exec', pod, '--', ...argv);

async function kubeProxyOn(node: string): Promise<string> {
  const r = await kubectlOk(kubectl)(
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
  return r;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-containers-'));
  const scenario = await writeScenarioVariant(dir, 'kubeadm-ipvs', {
    hosts: '    - match: green-2\n      nft: none\n',
    spec: "  images:\n    - match: 'ghcr.io/proxy-migrate/probe:*'\n      nft: '1.0.6'\n",
  });
  twin = await startTwin({ scenario, speed: 50 });
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 20_000 });
  await create('probe-green-1', 'green-1', probeSpec, probeContainer);
  await create('probe-green-2', 'green-2', probeSpec, probeContainer);
  await create('bare-green-1', 'green-1', { hostNetwork: true }, {});
  await create(
    'app-green-1',
    'green-1',
    {},
    { image: 'debian:12', securityContext: { capabilities: { add: ['NET_ADMIN'] } } },
  );
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('nft --version through kubectl exec', () => {
  it('prints the kube-proxy image’s nft in kube-proxy, the probe image’s in a probe, the host’s through chroot', async () => {
    // kubeadm-ipvs: green hosts run nft 1.0.9, the upstream kube-proxy image ships 1.0.9 too, the
    // probe image (spec.images) 1.0.6.
    const kp = await kubeProxyOn('legacy-1');
    expect((await exec(kp, 'nft', '--version')).stdout).toBe('nftables v1.0.9 (Old Doc Yak #3)\n');
    expect((await exec('probe-green-1', 'nft', '--version')).stdout).toBe(
      'nftables v1.0.6 (Lester Gooch #5)\n',
    );
    expect((await exec('probe-green-1', 'chroot', '/host', 'nft', '--version')).stdout).toBe(
      'nftables v1.0.9 (Old Doc Yak #3)\n',
    );
  });

  it('finds no nft on a host without one, while its kube-proxy runs on its image’s nft', async () => {
    const r = await exec('probe-green-2', 'chroot', '/host', 'nft', '--version');
    expect(r.code).toBe(127);
    expect(r.stderr).toBe(
      "chroot: failed to run command 'nft': No such file or directory\ncommand terminated with exit code 127\n",
    );
    const kp = await kubeProxyOn('green-2');
    expect((await exec(kp, 'nft', '--version')).stdout).toContain('v1.0.9');
    expect((await exec(kp, 'ipvsadm', '-Ln')).stdout).toContain('TCP  10.104.27.183:80 rr');
  });
});

describe('capabilities and network namespaces', () => {
  it('refuses nft and ipvsadm without NET_ADMIN as the real tools do', async () => {
    const nft = await exec('bare-green-1', 'nft', 'list', 'ruleset');
    expect(nft.code).toBe(1);
    expect(nft.stderr).toBe(
      'Operation not permitted (you must be root)\nnetlink: Error: cache initialization failed: Operation not permitted\ncommand terminated with exit code 1\n',
    );
    const ipvs = await exec('bare-green-1', 'ipvsadm', '-Ln');
    expect(ipvs.code).toBe(2);
    expect(ipvs.stderr).toContain("Can't initialize ipvs: Permission denied (you must be root)");
    expect((await exec('probe-green-1', 'ipvsadm', '-Ln')).stdout).toContain(
      'TCP  10.104.27.183:80',
    );
  });

  it('shows a pod without hostNetwork its own empty namespace', async () => {
    const podIP = await kubectlOk(kubectl)(
      ...ns,
      'get',
      'pod',
      'app-green-1',
      '-o',
      'jsonpath={.status.podIP}',
    );
    const addr = JSON.parse((await exec('app-green-1', 'ip', '-j', 'addr')).stdout) as {
      ifname: string;
      addr_info: { local: string }[];
    }[];
    expect(addr.map((i) => i.ifname)).toEqual(['lo', 'eth0']);
    expect(addr[1]?.addr_info.map((a) => a.local)).toEqual([podIP]);
    const link = await exec('app-green-1', 'ip', 'link', 'show', 'kube-ipvs0');
    expect(link.stderr).toMatch(/^Device "kube-ipvs0" does not exist\.\n/);
    expect((await exec('app-green-1', 'nft', 'list', 'ruleset')).stdout).toBe('');
    expect((await exec('app-green-1', 'ipvsadm', '-Ln')).stdout.trim().split('\n')).toHaveLength(3);
    // Its Service traffic still crosses the host's IPVS rules.
    const curl = await exec(
      'app-green-1',
      'curl',
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      'http://10.104.27.183/',
    );
    expect(curl.stdout).toBe('200');
  });
});

import { describe, expect, it } from 'vitest';
import type { JsonObject, KubeObject } from '../../../../src/apimachinery/types.js';
import { containerContext } from '../../../../src/node/container/context.js';
import { execContainer } from '../../../../src/node/container/kube-proxy-image.js';
import { containerCapabilities } from '../../../../src/node/container/capabilities.js';
import { imageContents, imageMatches } from '../../../../src/node/container/images.js';
import { ClusterDataplane } from '../../../../src/node/index.js';
import type { ImageSpec } from '../../../../src/scenario/schema.js';
import {
  cluster,
  configText,
  kubeProxyConfigMap,
  kubeProxyPod,
  node,
  startAll,
  t0,
} from '../fixtures.js';

/** A pod with one container `c` on node `a`; `extra` goes into the pod spec, `sc` the container's. */
function pod(
  image: string,
  extra: JsonObject = {},
  sc: JsonObject = {},
  mounts = false,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: {
      nodeName: 'a',
      containers: [
        {
          name: 'c',
          image,
          securityContext: sc,
          ...(mounts ? { volumeMounts: [{ name: 'root', mountPath: '/host' }] } : {}),
        },
      ],
      ...(mounts ? { volumes: [{ name: 'root', hostPath: { path: '/' } }] } : {}),
      ...extra,
    },
    status: { podIP: '10.244.1.77' },
  };
}

const probeLike = (o: { mounts?: boolean; caps?: string[] } = {}): KubeObject =>
  pod(
    'ghcr.io/proxy-migrate/probe:0.1.0',
    { hostNetwork: true },
    { capabilities: { drop: ['ALL'], add: o.caps ?? ['NET_ADMIN'] } },
    o.mounts ?? false,
  );

function run(m: ClusterDataplane, p: KubeObject, argv: string[], images: ImageSpec[] = []) {
  const container = containerContext({ pod: p, container: 'c', images });
  return m.exec('a', argv, t0 + 1000, { container });
}

describe('images', () => {
  it('matches references with * globs and lets later entries override', () => {
    expect(imageMatches('registry.k8s.io/kube-proxy:*', 'registry.k8s.io/kube-proxy:v1.33.4')).toBe(
      true,
    );
    expect(imageMatches('*/probe:*', 'ghcr.io/x/probe:1')).toBe(true);
    expect(imageMatches('probe', 'probe:1')).toBe(false);
    const images: ImageSpec[] = [
      { match: '*', nft: '1.0.2' },
      { match: 'busybox*', tools: ['sh', 'echo'] },
    ];
    expect(imageContents('alpine:3', images, '9.9.9')).toEqual({ nft: '1.0.2', tools: undefined });
    expect(imageContents('busybox:1.36', images, '9.9.9').nft).toBeUndefined();
    expect(imageContents('alpine:3', [{ match: '*', nft: 'none' }], '1.0.6').nft).toBeUndefined();
    expect(imageContents('alpine:3', [], '1.0.6')).toEqual({ nft: '1.0.6', tools: undefined });
  });
});

describe('capabilities', () => {
  const caps = (sc: JsonObject, podSc: JsonObject = {}): string[] =>
    [...containerCapabilities({ securityContext: podSc }, { securityContext: sc })].sort();

  it('computes them as containerd does', () => {
    expect(caps({})).toContain('SYS_CHROOT');
    expect(caps({})).not.toContain('NET_ADMIN');
    expect(caps({ capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } })).toEqual(['NET_ADMIN']);
    expect(caps({ capabilities: { add: ['CAP_NET_ADMIN'], drop: ['NET_RAW'] } })).toContain(
      'NET_ADMIN',
    );
    expect(caps({ capabilities: { drop: ['NET_RAW'] } })).not.toContain('NET_RAW');
    expect(caps({ privileged: true })).toContain('SYS_ADMIN');
    expect(caps({ privileged: true, runAsUser: 1000 })).toEqual([]);
    expect(caps({ capabilities: { add: ['NET_ADMIN'] } }, { runAsUser: 65534 })).toEqual([]);
  });
});

describe('nft --version in a container', () => {
  it('prints the image’s nft, not the host’s', () => {
    const m = cluster([{ match: 'a', nft: '1.1.1' }]);
    expect(m.exec('a', ['nft', '--version'], t0).stdout).toBe(
      'nftables v1.1.1 (Commodore Bullmoose #2)\n',
    );
    expect(run(m, probeLike(), ['nft', '--version']).stdout).toBe(
      'nftables v1.0.6 (Lester Gooch #5)\n',
    );
    const images = [{ match: 'ghcr.io/proxy-migrate/probe:*', nft: '1.0.9' }];
    expect(run(m, probeLike(), ['nft', '--version'], images).stdout).toBe(
      'nftables v1.0.9 (Old Doc Yak #3)\n',
    );
    const kp = kubeProxyPod('a');
    const ctx = (p: KubeObject): { exitCode: number; stdout: string; stderr: string } =>
      m.exec('a', ['nft', '-v'], t0, { container: execContainer(p, 'kube-proxy', [], true) });
    expect(ctx(kp).stdout).toBe('nftables v1.0.9 (Old Doc Yak #3)\n');
    const annotated = kubeProxyPod('a', {
      annotations: { 'twin.proxy-migrate.io/container-nft': '1.0.0' },
    });
    expect(ctx(annotated).stdout).toBe('nftables v1.0.0 (Fearless Fosdick #2)\n');
  });

  it('reaches the host’s nft through chroot into a hostPath mount of /', () => {
    const m = cluster([{ match: 'a', nft: '1.1.1' }]);
    const mounted = probeLike({ mounts: true, caps: ['NET_ADMIN', 'SYS_CHROOT'] });
    expect(run(m, mounted, ['chroot', '/host', 'nft', '--version']).stdout).toBe(
      'nftables v1.1.1 (Commodore Bullmoose #2)\n',
    );
    expect(run(m, probeLike({ mounts: true }), ['chroot', '/host', 'nft', '-v'])).toEqual({
      exitCode: 125,
      stdout: '',
      stderr: "chroot: cannot change root directory to '/host': Operation not permitted\n",
    });
    expect(run(m, probeLike(), ['chroot', '/host', 'nft', '-v']).stderr).toBe(
      "chroot: cannot change root directory to '/host': No such file or directory\n",
    );
  });

  it('enters the host with nsenter only from a privileged hostPID pod', () => {
    const m = cluster([{ match: 'a', nft: '1.1.1' }]);
    const argv = ['nsenter', '-t', '1', '-m', '-n', '--', 'nft', '--version'];
    const priv = pod('debian:12', { hostPID: true }, { privileged: true });
    expect(run(m, priv, argv).stdout).toBe('nftables v1.1.1 (Commodore Bullmoose #2)\n');
    // Without hostPID, PID 1 is the container's own: it stays in its namespaces.
    expect(run(m, pod('debian:12', {}, { privileged: true }), argv).stdout).toContain('v1.0.6');
    expect(run(m, pod('debian:12', { hostPID: true }), argv)).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'nsenter: cannot open /proc/1/ns/net: Permission denied\n',
    });
  });
});

describe('a host without nft', () => {
  it('has no nft command, while kube-proxy uses its image’s nft', () => {
    const m = cluster([{ match: 'a', nft: 'none' }]);
    expect(m.exec('a', ['nft', '--version'], t0)).toEqual({
      exitCode: 127,
      stdout: '',
      stderr: 'nft: command not found\n',
    });
    expect(m.exec('a', ['sh', '-c', 'nft --version'], t0).stderr).toBe(
      'sh: line 1: nft: command not found\n',
    );
    startAll(m, ['a'], configText('nftables'));
    expect(m.kubeProxy('a')?.phase).toBe('running');
    expect(m.dataplane('a')?.nft).toBeDefined();
    const inKubeProxy = { container: execContainer(kubeProxyPod('a'), 'kube-proxy', [], true) };
    expect(m.exec('a', ['nft', '--version'], t0, inKubeProxy).stdout).toContain('v1.0.9');
    const mounted = probeLike({ mounts: true, caps: ['NET_ADMIN', 'SYS_CHROOT'] });
    expect(run(m, mounted, ['chroot', '/host', 'nft', '--version'])).toEqual({
      exitCode: 127,
      stdout: '',
      stderr: "chroot: failed to run command 'nft': No such file or directory\n",
    });
  });
});

describe('capabilities of the netfilter tools', () => {
  it('refuses nft, ipvsadm and conntrack without NET_ADMIN as the real tools do', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const bare = probeLike({ caps: [] });
    expect(run(m, bare, ['nft', 'list', 'ruleset'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr:
        'Operation not permitted (you must be root)\nnetlink: Error: cache initialization failed: Operation not permitted\n',
    });
    expect(run(m, bare, ['nft', '--version']).exitCode).toBe(0);
    expect(run(m, bare, ['ipvsadm', '-Ln'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        "Can't initialize ipvs: Permission denied (you must be root)\nAre you sure that IP Virtual Server is built in the kernel or as module?\n",
    });
    expect(run(m, bare, ['conntrack', '-S']).stderr).toBe(
      'conntrack v1.4.7 (conntrack-tools): Operation failed: sorry, you must be root or get CAP_NET_ADMIN capability to do this\n',
    );
    expect(run(m, bare, ['ip', 'link', 'del', 'kube-ipvs0'])).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'RTNETLINK answers: Operation not permitted\n',
    });
    expect(run(m, probeLike(), ['ipvsadm', '-Ln']).stdout).toContain('TCP  10.96.10.10:80 rr');
    const privileged = pod('debian:12', { hostNetwork: true }, { privileged: true });
    expect(run(m, privileged, ['nft', 'list', 'tables']).exitCode).toBe(0);
    expect(m.dataplane('a')?.ipvsDummy).toBeDefined();
  });
});

describe('a pod without hostNetwork', () => {
  it('sees its own empty network namespace', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const own = pod('debian:12', {}, { capabilities: { add: ['NET_ADMIN'] } });
    const addrs = JSON.parse(run(m, own, ['ip', '-j', 'addr']).stdout) as JsonObject[];
    expect(addrs.map((i) => i['ifname'])).toEqual(['lo', 'eth0']);
    expect(JSON.stringify(addrs[1])).toContain('"local":"10.244.1.77"');
    expect(run(m, own, ['ip', 'link', 'show', 'kube-ipvs0'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'Device "kube-ipvs0" does not exist.\n',
    });
    expect(run(m, own, ['ipvsadm', '-Ln']).stdout.split('\n')).toHaveLength(4);
    expect(run(m, own, ['nft', 'list', 'ruleset'])).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    // Clearing its own (empty) IPVS table leaves the host's alone.
    expect(run(m, own, ['ipvsadm', '-C']).exitCode).toBe(0);
    expect(m.dataplane('a')?.ipvs).toBeDefined();
    // Service traffic still crosses the host's rules.
    expect(
      run(m, own, ['curl', '-s', '-o', '/dev/null', '-w', '%{http_code}', 'http://10.96.10.10/'])
        .stdout,
    ).toBe('200');
  });
});

describe('an image’s tools', () => {
  it('has only the commands the scenario lists', () => {
    const m = cluster();
    const images = [{ match: 'distroless/*', tools: ['nft'] }];
    const p = pod('distroless/static', { hostNetwork: true }, { privileged: true });
    expect(run(m, p, ['nft', '-v'], images).exitCode).toBe(0);
    expect(run(m, p, ['ip', 'addr'], images)).toEqual({
      exitCode: 127,
      stdout: '',
      stderr: 'ip: command not found\n',
    });
    expect(run(m, p, ['sh', '-c', 'nft -v'], images).stderr).toBe('sh: command not found\n');
  });

  it('feeds kube-proxy’s own nft check from spec.images', () => {
    const m = new ClusterDataplane({
      kubernetesVersion: 'v1.33.4',
      images: [{ match: 'registry.k8s.io/kube-proxy:*', nft: '1.0.0' }],
    });
    m.setNode(node('a', '10.0.1.11'));
    const r = m.podStarted(
      'a',
      kubeProxyPod('a'),
      [kubeProxyConfigMap(configText('nftables'))],
      t0,
    );
    expect(r.running).toBe(false);
    expect(r.message).toBe(
      'nft version must be v1.0.1 or later (got nftables v1.0.0 (Fearless Fosdick #2))',
    );
  });
});

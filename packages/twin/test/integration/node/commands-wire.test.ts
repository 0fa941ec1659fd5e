// The node commands the cutover and its rollback run, in the real tools' formats, through the real
// kubectl exec into host-network probe pods (the product's way in) and kube-proxy pods of
// kubeadm-ipvs, with green-2 a host without nft (Bottlerocket-like).
//
// Sources for the formats:
// - ipvsadm 1.31 ipvsadm.c: list_all prints "IP Virtual Server version …", print_title's
//   "%-33s %8s %8s %8s %8s %8s" stats header, print_service_entry's "%-33s" service name
//   ("TCP  VIP:PORT") and "  -> %-28s" destination, each counter print_largenum's "%9llu";
//   fail(2, "Can't initialize ipvs: %s\nAre you sure …") with libipvs' EPERM text.
// - nftables src/json.c: `-j` output is {"nftables": [{"metainfo": {version, release_name,
//   json_schema_version}}, …]} of the nft that runs (the container's binary, not the host's).
// - iproute2 ip/ipaddress.c JSON: ifindex, ifname, flags, mtu, qdisc, operstate, …, addr_info
//   [{family, local, prefixlen, scope, …}].
// - procps sysctl.c ReadSetting: "KEY = VALUE", -n the value; an unknown key is
//   "sysctl: cannot stat /proc/sys/…: No such file or directory" and rc -1 (exit 255).
// - util-linux nsenter.c: errexec → "nsenter: failed to execute CMD: No such file or directory",
//   exit 127; coreutils chroot: "chroot: failed to run command 'CMD': …", exit 127.
// - iptables nft-cache.c mnl_genid_get: xtables_error(RESOURCE_PROBLEM=4, "Could not fetch rule
//   set generation id: %s", "Permission denied (you must be root)").
// - conntrack-tools 1.4.7: exit_error(OTHER_PROBLEM=1, "Operation failed: %s", err2str(EPERM)).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../../src/index.js';
import { startTwin } from '../../../src/index.js';
import type { Kubectl, KubectlResult } from '../../../src/testing/kubectl.js';
import { kubectlOk, kubectlWith } from '../../../src/testing/kubectl.js';
import { eventually } from '../../../src/testing/wait.js';
import { writeScenarioVariant } from '../kubelet/scenario-variant.js';

let twin: Twin;
let dir: string;
let kubectl: Kubectl;
let ok: (...args: string[]) => Promise<string>;
const ns = ['-n', 'kube-system'];
const web = '10.104.27.183';

const hostRoot = { name: 'host-root', hostPath: { path: '/', type: 'Directory' } };
const mountRoot = { name: 'host-root', mountPath: '/host', readOnly: true };

/** The product's probe: host network, NET_ADMIN for the netfilter tools, the host's root. */
function probe(name: string, node: string, extra: { spec?: object; container?: object } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'kube-system' },
    spec: {
      nodeName: node,
      hostNetwork: true,
      volumes: [hostRoot],
      containers: [
        {
          name: 'probe',
          image: 'ghcr.io/proxy-migrate/probe:0.1.0',
          command: ['sleep', '3600'],
          securityContext: { capabilities: { add: ['NET_ADMIN', 'SYS_CHROOT'] } },
          volumeMounts: [mountRoot],
          ...extra.container,
        },
      ],
      ...extra.spec,
    },
  };
}

const exec = (pod: string, ...argv: string[]): Promise<KubectlResult> =>
  kubectl(...ns, 'exec', pod, '--', ...argv);

const kubeProxyOn = (node: string): Promise<string> =>
  eventually(`a Ready kube-proxy on ${node}`, async () => {
    const list = JSON.parse(
      await ok(...ns, 'get', 'pods', '-l', 'k8s-app=kube-proxy', '-o', 'json'),
    ) as {
      items: {
        metadata: { name: string; deletionTimestamp?: string };
        spec: { nodeName?: string };
        status: { containerStatuses?: { ready: boolean }[] };
      }[];
    };
    return list.items.find(
      (p) =>
        p.spec.nodeName === node &&
        p.metadata.deletionTimestamp === undefined &&
        p.status.containerStatuses?.[0]?.ready === true,
    )?.metadata.name;
  });

/** What kubectl appends to a failing command's stderr. */
const terminated = (code: number): string => `command terminated with exit code ${code}\n`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twin-commands-wire-'));
  const scenario = await writeScenarioVariant(dir, 'kubeadm-ipvs', {
    hosts: '    - match: green-2\n      nft: none\n',
  });
  twin = await startTwin({ scenario, speed: 50 });
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  kubectl = kubectlWith(join(dir, 'kubeconfig'), dir, { timeoutMs: 20_000 });
  ok = kubectlOk(kubectl);
  const pods = [
    probe('probe-blue-1', 'blue-1'),
    probe('probe-legacy-1', 'legacy-1'),
    // No capabilities beyond the runtime's default set: no NET_ADMIN.
    probe('bare-blue-1', 'blue-1', { container: { securityContext: {} } }),
    // nsenter into PID 1's namespaces needs hostPID and a privileged container.
    probe('probe-green-2', 'green-2', {
      spec: { hostPID: true },
      container: { securityContext: { privileged: true } },
    }),
  ];
  for (const pod of pods) {
    const path = join(dir, `${pod.metadata.name}.json`);
    await writeFile(path, JSON.stringify(pod));
    await ok('create', '-f', path);
  }
  for (const pod of pods)
    await eventually(`${pod.metadata.name} Running`, async () => {
      const phase = await ok(
        ...ns,
        'get',
        'pod',
        pod.metadata.name,
        '-o',
        'jsonpath={.status.phase}',
      );
      return phase === 'Running' ? true : undefined;
    });
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the IPVS node, in the real tools’ formats', () => {
  it('ipvsadm -Ln --stats: the header, then every virtual server and real server of -Sn', async () => {
    const stats = await exec('probe-blue-1', 'ipvsadm', '-Ln', '--stats');
    expect(stats.code).toBe(0);
    const lines = stats.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'IP Virtual Server version 1.2.1 (size=4096)',
      'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
      '  -> RemoteAddress:Port',
    ]);
    const zeros = '        0'.repeat(5);
    const services: string[] = [];
    const dests: string[] = [];
    let current = '';
    for (const line of lines.slice(3)) {
      // "%-33s" then five "%9llu"; an IPv4 name is cut at 33, so every row is 78 wide.
      expect(line.endsWith(zeros)).toBe(true);
      expect(line).toHaveLength(33 + 45);
      const name = line.slice(0, 33).trimEnd();
      const svc = /^(TCP|UDP) {2}(\S+)$/.exec(name);
      if (svc) {
        current = `${svc[1] === 'TCP' ? '-t' : '-u'} ${svc[2]}`;
        services.push(current);
        continue;
      }
      const dest = /^ {2}-> (\S+)$/.exec(name);
      expect(dest, line).not.toBeNull();
      dests.push(`${current} ${dest?.[1] ?? ''}`);
    }
    expect(services).toContain(`-t ${web}:80`);
    // The same tables as the rollback reference ipvsadm -Sn saves.
    const save = (await exec('probe-blue-1', 'ipvsadm', '-Sn')).stdout.trimEnd().split('\n');
    expect(
      save.filter((l) => l.startsWith('-A ')).map((l) => l.replace(/^-A (.*) -s .*$/, '$1')),
    ).toEqual(services);
    expect(
      save
        .filter((l) => l.startsWith('-a '))
        .map((l) => l.replace(/^-a (.*) -r (\S+) -m -w \d+$/, '$1 $2')),
    ).toEqual(dests);
  });

  it('iptables-save: every table from *name to COMMIT, between the generated/completed comments', async () => {
    const save = await exec('probe-blue-1', 'iptables-save');
    expect(save.code).toBe(0);
    const blocks = save.stdout.split(/(?<=\n)(?=# Generated by )/);
    const tables = blocks.map((b) => {
      expect(b).toMatch(
        /^# Generated by iptables-save v1\.8\.9 \(nf_tables\) on .+\n\*\w+\n(:\S+ (ACCEPT|DROP|-) \[0:0\]\n)+(-A .+\n)*COMMIT\n# Completed on .+\n$/,
      );
      return /\n\*(\w+)\n/.exec(b)?.[1];
    });
    expect(tables).toEqual(expect.arrayContaining(['filter', 'nat']));
    expect(save.stdout).toContain(
      '\n-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT\n',
    );
  });

  it('nft -j list ruleset: valid JSON whose metainfo names the nft that ran', async () => {
    const metainfo = async (pod: string, ...argv: string[]): Promise<unknown> => {
      const r = await exec(pod, ...argv);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as { nftables: Record<string, unknown>[] };
      // IPVS mode: no kube-proxy table, so the ruleset is the metainfo alone.
      expect(doc.nftables).toHaveLength(1);
      return doc.nftables[0];
    };
    // The probe image's nft (Debian bookworm's 1.0.6), not the host's 1.0.2.
    expect(await metainfo('probe-blue-1', 'nft', '-j', 'list', 'ruleset')).toEqual({
      metainfo: { version: '1.0.6', release_name: 'Lester Gooch #5', json_schema_version: 1 },
    });
    expect(
      await metainfo('probe-blue-1', 'chroot', '/host', 'nft', '-j', 'list', 'ruleset'),
    ).toEqual({
      metainfo: { version: '1.0.2', release_name: 'Lester Gooch', json_schema_version: 1 },
    });
    // kube-proxy's image ships 1.0.9.
    const kp = await kubeProxyOn('blue-1');
    expect(await metainfo(kp, 'nft', '-j', 'list', 'ruleset')).toEqual({
      metainfo: { version: '1.0.9', release_name: 'Old Doc Yak #3', json_schema_version: 1 },
    });
  });

  it('kube-proxy’s /proxyMode from the node', async () => {
    const r = await exec('probe-blue-1', 'curl', '-s', '-i', 'http://127.0.0.1:10249/proxyMode');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(r.stdout).toContain('\r\nContent-Type: text/plain; charset=utf-8\r\n');
    expect(r.stdout.endsWith('\r\n\r\nipvs')).toBe(true);
  });

  it('ip -j addr: the host’s addresses as iproute2 prints them, kube-ipvs0 holding the ClusterIPs', async () => {
    const internal = await ok(
      'get',
      'node',
      'blue-1',
      '-o',
      'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}',
    );
    const r = await exec('probe-blue-1', 'ip', '-j', 'addr');
    expect(r.code).toBe(0);
    const links = JSON.parse(r.stdout) as {
      ifindex: number;
      ifname: string;
      flags: string[];
      operstate: string;
      addr_info: { family: string; local: string; prefixlen: number; scope: string }[];
    }[];
    expect(links[0]).toMatchObject({ ifindex: 1, ifname: 'lo', operstate: 'UNKNOWN' });
    expect(Object.keys(links[0] ?? {}).slice(0, 4)).toEqual(['ifindex', 'ifname', 'flags', 'mtu']);
    expect(links[0]?.addr_info[0]).toMatchObject({
      family: 'inet',
      local: '127.0.0.1',
      prefixlen: 8,
      scope: 'host',
    });
    const nic = links.find((l) => l.addr_info.some((a) => a.local === internal));
    expect(nic?.flags).toEqual(expect.arrayContaining(['UP', 'LOWER_UP']));
    const ipvs0 = links.find((l) => l.ifname === 'kube-ipvs0');
    expect(ipvs0?.operstate).toBe('DOWN');
    expect(ipvs0?.addr_info).toContainEqual(
      expect.objectContaining({ family: 'inet', local: web, prefixlen: 32, scope: 'global' }),
    );
    // The same from a pod without NET_ADMIN: reading addresses needs no capability.
    expect((await exec('bare-blue-1', 'ip', '-j', 'addr')).stdout).toBe(r.stdout);
  });

  it('sysctl reads the probes make: the host’s conntrack and route_localnet', async () => {
    // kubeadm-ipvs: every host has conntrack max 262144 (count 1200), legacy hosts 131072 (900).
    expect(
      (await exec('bare-blue-1', 'sysctl', '-n', 'net.netfilter.nf_conntrack_count')).stdout,
    ).toBe('1200\n');
    expect(
      (await exec('bare-blue-1', 'sysctl', '-n', 'net.netfilter.nf_conntrack_max')).stdout,
    ).toBe('262144\n');
    expect(
      (await exec('probe-legacy-1', 'sysctl', '-n', 'net.netfilter.nf_conntrack_max')).stdout,
    ).toBe('131072\n');
    expect(
      (await exec('probe-blue-1', 'sysctl', '-n', 'net.ipv4.conf.all.route_localnet')).stdout,
    ).toBe('0\n');
    expect((await exec('probe-blue-1', 'sysctl', 'net.netfilter.nf_conntrack_max')).stdout).toBe(
      'net.netfilter.nf_conntrack_max = 262144\n',
    );
    expect(
      (await exec('probe-blue-1', 'cat', '/proc/sys/net/netfilter/nf_conntrack_count')).stdout,
    ).toBe('1200\n');
    expect(await exec('probe-blue-1', 'sysctl', '-n', 'net.netfilter.nf_conntrack_nope')).toEqual({
      code: 255,
      stdout: '',
      stderr: `sysctl: cannot stat /proc/sys/net/netfilter/nf_conntrack_nope: No such file or directory\n${terminated(255)}`,
    });
  });

  it('refuses the netfilter tools without CAP_NET_ADMIN with their own errors and exit codes', async () => {
    expect(await exec('bare-blue-1', 'ipvsadm', '-Sn')).toEqual({
      code: 2,
      stdout: '',
      stderr: `Can't initialize ipvs: Permission denied (you must be root)\nAre you sure that IP Virtual Server is built in the kernel or as module?\n${terminated(2)}`,
    });
    expect(await exec('bare-blue-1', 'nft', '-j', 'list', 'ruleset')).toEqual({
      code: 1,
      stdout: '',
      stderr: `Operation not permitted (you must be root)\nnetlink: Error: cache initialization failed: Operation not permitted\n${terminated(1)}`,
    });
    expect(await exec('bare-blue-1', 'iptables-save')).toEqual({
      code: 4,
      stdout: '',
      stderr: `iptables-save v1.8.9 (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)\n${terminated(4)}`,
    });
    expect(await exec('bare-blue-1', 'conntrack', '-S')).toEqual({
      code: 1,
      stdout: '',
      stderr: `conntrack v1.4.7 (conntrack-tools): Operation failed: sorry, you must be root or get CAP_NET_ADMIN capability to do this\n${terminated(1)}`,
    });
    // The version needs no netlink.
    expect(await exec('bare-blue-1', 'nft', '--version')).toEqual({
      code: 0,
      stdout: 'nftables v1.0.6 (Lester Gooch #5)\n',
      stderr: '',
    });
  });
});

describe('a host without nft', () => {
  it('has no nft of its own (exit 127), while its kube-proxy in nftables mode programs rules', async () => {
    expect(await exec('probe-green-2', 'chroot', '/host', 'nft', 'list', 'ruleset')).toEqual({
      code: 127,
      stdout: '',
      stderr: `chroot: failed to run command 'nft': No such file or directory\n${terminated(127)}`,
    });
    expect(
      await exec('probe-green-2', 'nsenter', '-t', '1', '-m', '-n', 'nft', 'list', 'ruleset'),
    ).toEqual({
      code: 127,
      stdout: '',
      stderr: `nsenter: failed to execute nft: No such file or directory\n${terminated(127)}`,
    });

    const conf = await ok(...ns, 'get', 'cm', 'kube-proxy', '-o', 'jsonpath={.data.config\\.conf}');
    await ok(
      ...ns,
      'patch',
      'cm',
      'kube-proxy',
      '--type',
      'merge',
      '-p',
      JSON.stringify({
        data: { 'config.conf': conf.replace(/\nmode: [^\n]*/, '\nmode: nftables') },
      }),
    );
    // kube-proxy exits on its changed config at the next kubelet sync, restarts in nftables mode
    // with its image's nft, and programs its table at its first sync.
    await eventually(
      'green-2 in nftables mode with its table',
      async () => {
        const mode = await exec('probe-green-2', 'curl', '-s', 'http://127.0.0.1:10249/proxyMode');
        if (mode.stdout !== 'nftables') return undefined;
        const kp = await kubeProxyOn('green-2');
        const table = await exec(kp, 'nft', '-j', 'list', 'table', 'ip', 'kube-proxy');
        return table.code === 0 ? table.stdout : undefined;
      },
      60_000,
    ).then((stdout) => {
      const doc = JSON.parse(stdout) as {
        nftables: Record<string, { name?: string; elem?: unknown[]; version?: string }>[];
      };
      expect(doc.nftables[0]?.['metainfo']?.version).toBe('1.0.9');
      expect(doc.nftables.find((o) => o['set']?.name === 'cluster-ips')?.['set']?.elem).toContain(
        web,
      );
    });
    const curl = await exec(
      'probe-green-2',
      'curl',
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      `http://${web}/`,
    );
    expect(curl.stdout).toBe('200');
    // Still no nft on the host itself.
    expect((await exec('probe-green-2', 'chroot', '/host', 'nft', '--version')).code).toBe(127);
  });
});

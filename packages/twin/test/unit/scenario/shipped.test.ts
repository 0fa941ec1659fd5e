// Every shipped scenario (scenarios/*.yaml) loads through the real loader, and each one holds the
// facts it exists for: node pools, kernels, providerIDs, how kube-proxy is packaged and configured,
// and, for traps.yaml, every playbook trap on the node or object scenarios/README.md names.
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { HostSpec, KubeObject, Scenario } from '../../../src/index.js';
import { loadScenario, shippedScenarioNames } from '../../../src/index.js';
import { shippedScenarioDir } from '../../../src/scenario/scenario.js';

type Json = Record<string, unknown>;

const loaded = new Map<string, Scenario>();

async function scenario(name: string): Promise<Scenario> {
  let s = loaded.get(name);
  if (!s) {
    s = await loadScenario(name);
    loaded.set(name, s);
  }
  return s;
}

function rec(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : {};
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function all(s: Scenario, kind: string, namespace?: string): KubeObject[] {
  return s.objects.filter(
    (o) => o.kind === kind && (namespace === undefined || o.metadata.namespace === namespace),
  );
}

function one(s: Scenario, kind: string, name: string, namespace?: string): KubeObject {
  const found = all(s, kind, namespace).filter((o) => o.metadata.name === name);
  expect(found, `${kind} ${namespace ?? ''}/${name}`).toHaveLength(1);
  return found[0]!;
}

function has(s: Scenario, kind: string, name: string, namespace?: string): boolean {
  return all(s, kind, namespace).some((o) => o.metadata.name === name);
}

function nodeInfo(node: KubeObject): Json {
  return rec(rec(node['status'])['nodeInfo']);
}

function kernelOf(node: KubeObject): string {
  return String(nodeInfo(node)['kernelVersion']);
}

/** major.minor of a kernel string, as kube-proxy compares it ("5.15.0-122-generic" -> 5.15). */
function kernelMinor(kernel: string): number {
  const m = /^(\d+)\.(\d+)/.exec(kernel);
  return m ? Number(m[1]) + Number(m[2]) / 1000 : NaN;
}

function labelsOf(o: KubeObject): Record<string, string> {
  return o.metadata.labels ?? {};
}

function nodesWith(s: Scenario, key: string, value: string): KubeObject[] {
  return all(s, 'Node').filter((n) => labelsOf(n)[key] === value);
}

function podSpec(workload: KubeObject): Json {
  return rec(rec(rec(workload['spec'])['template'])['spec']);
}

function firstContainer(spec: Json): Json {
  return rec(arr(spec['containers'])[0]);
}

function command(workload: KubeObject): string[] {
  return arr(firstContainer(podSpec(workload))['command']).map(String);
}

function data(cm: KubeObject): Record<string, string> {
  return rec(cm['data']) as Record<string, string>;
}

/** A KubeProxyConfiguration stored in a ConfigMap key. */
function proxyConfig(cm: KubeObject, key: string): Json {
  const text = data(cm)[key];
  expect(text, `ConfigMap ${cm.metadata.name} key ${key}`).toBeTypeOf('string');
  const parsed = rec(parse(text!));
  expect(parsed['kind']).toBe('KubeProxyConfiguration');
  return parsed;
}

/**
 * The host facts that apply to a node. TWIN.md does not say how several matching entries combine;
 * the shipped files list "*" first, then labels, then node names, and expect later entries to
 * override earlier ones field by field, which this mirrors.
 */
function hostFacts(s: Scenario, node: KubeObject): HostSpec {
  const name = node.metadata.name ?? '';
  const labels = labelsOf(node);
  const matching = s.header.spec.hosts.filter((h) => {
    if (h.match === '*' || h.match === name) return true;
    const m = /^label:([^=]+)=(.*)$/.exec(h.match);
    return m !== null && labels[m[1]!] === m[2];
  });
  return Object.assign({ match: name }, ...matching) as HostSpec;
}

function services(s: Scenario): KubeObject[] {
  return all(s, 'Service');
}

function serviceType(svc: KubeObject): string {
  const type = rec(svc['spec'])['type'];
  return typeof type === 'string' ? type : 'ClusterIP';
}

const expectations = [
  'aks',
  'cilium-kpr',
  'eks-al2-al2023',
  'k3s',
  'kubeadm-blank-mode',
  'kubeadm-ipvs',
  'large-generated',
  'nftables-done',
  'traps',
];

describe('shipped scenarios', () => {
  it('covers every file in scenarios/ (add expectations for a new scenario here)', () => {
    const files = readdirSync(shippedScenarioDir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.slice(0, -'.yaml'.length))
      .sort();
    expect(files).toEqual(expectations);
    expect(shippedScenarioNames()).toEqual(expectations);
  });

  it.each(expectations)(
    '%s loads with a header named after the file',
    async (name) => {
      const s = await scenario(name);
      expect(s.header.metadata.name).toBe(name);
      expect(s.header.metadata.description?.length ?? 0).toBeGreaterThan(20);
      expect(s.header.spec.kubernetesVersion).toMatch(/^v1\.\d+\.\d+/);
      expect(s.warnings).toEqual([]);
      // Object identity: no duplicate kind/namespace/name and no duplicate uid.
      const keys = s.objects.map(
        (o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`,
      );
      expect(new Set(keys).size).toBe(keys.length);
      const uids = s.objects.map((o) => o.metadata.uid).filter((u) => u !== undefined);
      expect(new Set(uids).size).toBe(uids.length);
      // Every host entry matches at least one node.
      const nodes = all(s, 'Node');
      for (const host of s.header.spec.hosts) {
        const matched = nodes.filter((n) => {
          if (host.match === '*' || host.match === n.metadata.name) return true;
          const m = /^label:([^=]+)=(.*)$/.exec(host.match);
          return m !== null && labelsOf(n)[m[1]!] === m[2];
        });
        expect(matched.length, `hosts entry ${host.match}`).toBeGreaterThan(0);
      }
    },
    30_000,
  );
});

describe('kubeadm-ipvs (existing)', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario('kubeadm-ipvs');
  });

  it('is a 6-node kubeadm cluster in IPVS mode', () => {
    expect(all(s, 'Node')).toHaveLength(6);
    expect(
      proxyConfig(one(s, 'ConfigMap', 'kube-proxy', 'kube-system'), 'config.conf')['mode'],
    ).toBe('ipvs');
    expect(command(one(s, 'DaemonSet', 'kube-proxy', 'kube-system'))).toContain(
      '--config=/var/lib/kube-proxy/config.conf',
    );
  });
});

describe('large-generated (existing)', () => {
  it('generates 5,000 nodes and 20,000 services', async () => {
    const s = await scenario('large-generated');
    expect(all(s, 'Node')).toHaveLength(5000);
    expect(services(s)).toHaveLength(20000);
  }, 30_000);
});

describe('eks-al2-al2023', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario('eks-al2-al2023');
  });

  it('is EKS 1.33 with two managed node groups', () => {
    expect(s.header.spec.kubernetesVersion).toMatch(/^v1\.33\.\d+-eks-[0-9a-f]{7}$/);
    const al2 = nodesWith(s, 'eks.amazonaws.com/nodegroup', 'ng-al2');
    const al2023 = nodesWith(s, 'eks.amazonaws.com/nodegroup', 'ng-al2023');
    expect(al2).toHaveLength(2);
    expect(al2023).toHaveLength(3);
    expect(all(s, 'Node')).toHaveLength(5);
    for (const n of al2) {
      expect(kernelOf(n)).toBe('5.10.238-231.953.amzn2.x86_64');
      expect(nodeInfo(n)['osImage']).toBe('Amazon Linux 2');
      // No EKS-optimized AL2 AMI exists for 1.33: the AL2 group still runs a 1.32 kubelet.
      expect(nodeInfo(n)['kubeletVersion']).toMatch(/^v1\.32\.\d+-eks-[0-9a-f]{7}$/);
      expect(hostFacts(s, n).nft).toBe('0.8');
    }
    for (const n of al2023) {
      expect(kernelOf(n)).toBe('6.1.134-150.224.amzn2023.x86_64');
      expect(nodeInfo(n)['kubeletVersion']).toMatch(/^v1\.33\.\d+-eks-[0-9a-f]{7}$/);
      expect(hostFacts(s, n).nft).toBe('1.0.4');
    }
    for (const n of all(s, 'Node')) {
      expect(rec(n['spec'])['providerID']).toMatch(/^aws:\/\/\/us-east-1[a-c]\/i-0[0-9a-f]{16}$/);
      expect(n.metadata.name).toMatch(/^ip-10-0-\d+-\d+\.ec2\.internal$/);
      const labels = labelsOf(n);
      expect(labels['eks.amazonaws.com/capacityType']).toBe('ON_DEMAND');
      expect(labels['eks.amazonaws.com/nodegroup-image']).toMatch(/^ami-[0-9a-f]{17}$/);
      expect(labels['topology.kubernetes.io/zone']).toMatch(/^us-east-1[a-c]$/);
      expect(labels['topology.kubernetes.io/region']).toBe('us-east-1');
    }
  });

  it('has the kube-proxy add-on objects in IPVS mode', () => {
    const cm = one(s, 'ConfigMap', 'kube-proxy-config', 'kube-system');
    const config = proxyConfig(cm, 'config');
    expect(config['mode']).toBe('ipvs');
    expect(config['metricsBindAddress']).toBe('0.0.0.0:10249');
    expect(rec(config['ipvs'])['scheduler']).toBe('rr');
    expect(data(one(s, 'ConfigMap', 'kube-proxy', 'kube-system'))['kubeconfig']).toContain(
      'eks.amazonaws.com',
    );
    const ds = one(s, 'DaemonSet', 'kube-proxy', 'kube-system');
    expect(command(ds)).toEqual([
      'kube-proxy',
      '--v=2',
      '--config=/var/lib/kube-proxy-config/config',
      '--hostname-override=$(NODE_NAME)',
    ]);
    expect(labelsOf(ds)).toMatchObject({
      'eks.amazonaws.com/component': 'kube-proxy',
      'k8s-app': 'kube-proxy',
    });
    expect(firstContainer(podSpec(ds))['image']).toMatch(
      /^602401143452\.dkr\.ecr\.us-east-1\.amazonaws\.com\/eks\/kube-proxy:v1\.33\.\d+-eksbuild\.\d+$/,
    );
    const volumes = arr(podSpec(ds)['volumes']).map((v) => rec(rec(v)['configMap'])['name']);
    expect(volumes).toEqual(expect.arrayContaining(['kube-proxy', 'kube-proxy-config']));
  });

  it('has the VPC CNI with its version, CoreDNS and a LoadBalancer', () => {
    const awsNode = one(s, 'DaemonSet', 'aws-node', 'kube-system');
    expect(labelsOf(awsNode)['app.kubernetes.io/version']).toBe('v1.20.4');
    expect(firstContainer(podSpec(awsNode))['image']).toContain('amazon-k8s-cni:v1.20.4');
    expect(has(s, 'Deployment', 'coredns', 'kube-system')).toBe(true);
    expect(rec(one(s, 'Service', 'kube-dns', 'kube-system')['spec'])['clusterIP']).toBe(
      '172.20.0.10',
    );
    const lb = services(s).filter((svc) => serviceType(svc) === 'LoadBalancer');
    expect(lb.map((svc) => svc.metadata.name)).toEqual(['storefront']);
  });
});

describe('aks', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario('aks');
  });

  it('has a system pool and a user pool on the AKS Ubuntu kernel', () => {
    const system = nodesWith(s, 'kubernetes.azure.com/agentpool', 'nodepool1');
    const user = nodesWith(s, 'kubernetes.azure.com/agentpool', 'userpool');
    expect(system).toHaveLength(3);
    expect(user).toHaveLength(2);
    expect(system.map((n) => labelsOf(n)['kubernetes.azure.com/mode'])).toEqual([
      'system',
      'system',
      'system',
    ]);
    expect(system[0]!.metadata.name).toBe('aks-nodepool1-12345678-vmss000000');
    for (const n of all(s, 'Node')) {
      expect(kernelOf(n)).toBe('5.15.0-1079-azure');
      expect(n.metadata.name).toMatch(/^aks-(nodepool1|userpool)-12345678-vmss00000\d$/);
      expect(labelsOf(n)['kubernetes.azure.com/cluster']).toMatch(/^MC_/);
      expect(rec(n['spec'])['providerID']).toMatch(
        /^azure:\/\/\/subscriptions\/[0-9a-f-]{36}\/resourceGroups\/mc_[^/]+\/providers\/Microsoft\.Compute\/virtualMachineScaleSets\/aks-(nodepool1|userpool)-12345678-vmss\/virtualMachines\/\d+$/,
      );
    }
  });

  it('runs kube-proxy the AKS way: reconciled DaemonSet, IPVS by flags, no config file', () => {
    const ds = one(s, 'DaemonSet', 'kube-proxy', 'kube-system');
    expect(labelsOf(ds)['addonmanager.kubernetes.io/mode']).toBe('Reconcile');
    const cmd = command(ds);
    expect(cmd).toContain('--proxy-mode=ipvs');
    expect(cmd).toContain('--ipvs-scheduler=lc');
    expect(cmd.some((a) => a.startsWith('--config'))).toBe(false);
    expect(all(s, 'ConfigMap').filter((cm) => cm.metadata.name?.startsWith('kube-proxy'))).toEqual(
      [],
    );
  });
});

describe('cilium-kpr', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario('cilium-kpr');
  });

  it('has Cilium replacing kube-proxy and no kube-proxy at all', () => {
    const cm = one(s, 'ConfigMap', 'cilium-config', 'kube-system');
    expect(data(cm)['kube-proxy-replacement']).toBe('true');
    expect(has(s, 'DaemonSet', 'cilium', 'kube-system')).toBe(true);
    expect(all(s, 'DaemonSet').filter((ds) => ds.metadata.name?.includes('kube-proxy'))).toEqual(
      [],
    );
    expect(all(s, 'ConfigMap').filter((c) => c.metadata.name?.startsWith('kube-proxy'))).toEqual(
      [],
    );
    expect(has(s, 'ConfigMap', 'kubeadm-config', 'kube-system')).toBe(true);
    expect(all(s, 'Node')).toHaveLength(4);
  });
});

describe('nftables-done', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario('nftables-done');
  });

  it('is a kubeadm 1.34 cluster already in nftables mode with the playbooks settings', () => {
    expect(s.header.spec.kubernetesVersion).toMatch(/^v1\.34\.\d+$/);
    const config = proxyConfig(one(s, 'ConfigMap', 'kube-proxy', 'kube-system'), 'config.conf');
    expect(config['mode']).toBe('nftables');
    expect(arr(config['nodePortAddresses']).length).toBeGreaterThan(0);
    expect(rec(config['conntrack'])['tcpBeLiberal']).toBe(true);
    expect(rec(config['nftables'])).toMatchObject({ masqueradeBit: 14, syncPeriod: '30s' });
    // tcpBeLiberal is there because some kernels are older than 6.1.
    expect(all(s, 'Node').some((n) => kernelMinor(kernelOf(n)) < 6.001)).toBe(true);
    expect(all(s, 'Node').every((n) => kernelMinor(kernelOf(n)) >= 5.013)).toBe(true);
    const ds = one(s, 'DaemonSet', 'kube-proxy', 'kube-system');
    expect(command(ds).some((a) => a.startsWith('--proxy-mode'))).toBe(false);
    expect(s.header.spec.hosts.flatMap((h) => h.faults ?? [])).toEqual([]);
    const rule = JSON.stringify(one(s, 'PrometheusRule', 'kube-proxy-rules', 'monitoring'));
    expect(rule).toContain('kubeproxy_sync_proxy_rules_nftables_sync_failures_total');
    expect(rule).toContain('absent(');
    expect(rule).not.toContain('iptables_restore_failures');
  });
});

describe('kubeadm-blank-mode', () => {
  let s: Scenario;
  let config: Json;
  beforeAll(async () => {
    s = await scenario('kubeadm-blank-mode');
    config = proxyConfig(one(s, 'ConfigMap', 'kube-proxy', 'kube-system'), 'config.conf');
  });

  it('is a 4-node kubeadm v1.35.2 cluster: cp-1 and pool workers, all able to run nftables', () => {
    expect(s.header.spec.kubernetesVersion).toBe('v1.35.2');
    expect(s.header.metadata.description).toContain('mode ""');
    expect(
      all(s, 'Node')
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual(['cp-1', 'w-1', 'w-2', 'w-3']);
    expect(labelsOf(one(s, 'Node', 'cp-1'))).toHaveProperty([
      'node-role.kubernetes.io/control-plane',
    ]);
    expect(nodesWith(s, 'node-pool', 'workers').map((n) => n.metadata.name)).toEqual([
      'w-1',
      'w-2',
      'w-3',
    ]);
    for (const n of all(s, 'Node')) {
      expect(kernelOf(n)).toMatch(/^6\.8\.0-\d+-generic$/);
      expect(kernelMinor(kernelOf(n))).toBeGreaterThanOrEqual(6.001);
      expect(nodeInfo(n)['osImage']).toMatch(/^Ubuntu 24\.04/);
      expect(nodeInfo(n)['kubeletVersion']).toBe('v1.35.2');
      expect(hostFacts(s, n).nft).toBe('1.0.9');
      expect(hostFacts(s, n).faults ?? []).toEqual([]);
    }
  });

  it('has the kube-proxy ConfigMap as kubeadm renders it: mode and metricsBindAddress blank', () => {
    const cm = one(s, 'ConfigMap', 'kube-proxy', 'kube-system');
    expect(labelsOf(cm)['app']).toBe('kube-proxy');
    expect(config['mode']).toBe('');
    expect(config['metricsBindAddress']).toBe('');
    expect(data(cm)['config.conf']).toContain('\nmode: ""\n');
    expect(data(cm)['config.conf']).toContain('\nmetricsBindAddress: ""\n');
    expect(config['nodePortAddresses']).toBeNull();
    expect(config['featureGates']).toBeUndefined();
    expect(rec(config['ipvs'])['scheduler']).toBe('');
    expect(data(cm)['kubeconfig.conf']).toContain('tokenFile:');
    // The ClusterConfiguration has no proxy settings: kubeadm rendered its defaults.
    expect(
      data(one(s, 'ConfigMap', 'kubeadm-config', 'kube-system'))['ClusterConfiguration'],
    ).toMatch(/kubernetesVersion: v1\.35\.2\n[\s\S]*proxy: \{\}\n/);
  });

  it("runs kubeadm's kube-proxy DaemonSet with --config only", () => {
    const ds = one(s, 'DaemonSet', 'kube-proxy', 'kube-system');
    expect(command(ds)).toEqual([
      '/usr/local/bin/kube-proxy',
      '--config=/var/lib/kube-proxy/config.conf',
      '--hostname-override=$(NODE_NAME)',
    ]);
    expect(firstContainer(podSpec(ds))['image']).toBe('registry.k8s.io/kube-proxy:v1.35.2');
    expect(all(s, 'DaemonSet').map((d) => d.metadata.name)).toEqual(['kube-proxy']);
  });

  it('has kube-dns and a ClusterIP Service, and no NodePort or LoadBalancer Service', () => {
    expect(has(s, 'Deployment', 'coredns', 'kube-system')).toBe(true);
    expect(rec(one(s, 'Service', 'kube-dns', 'kube-system')['spec'])['clusterIP']).toBe(
      '10.96.0.10',
    );
    expect(serviceType(one(s, 'Service', 'web', 'default'))).toBe('ClusterIP');
    expect(services(s).map(serviceType)).toEqual(['ClusterIP', 'ClusterIP', 'ClusterIP']);
    expect(has(s, 'ConfigMap', 'cilium-config', 'kube-system')).toBe(false);
  });
});

describe('k3s', () => {
  let s: Scenario;
  beforeAll(async () => {
    s = await scenario('k3s');
  });

  it('is a k3s v1.34 cluster: one server and two agents with the labels k3s sets', () => {
    expect(s.header.spec.kubernetesVersion).toBe('v1.34.3+k3s1');
    expect(
      all(s, 'Node')
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual(['agent-1', 'agent-2', 'server-1']);
    expect(nodesWith(s, 'node-pool', 'servers').map((n) => n.metadata.name)).toEqual(['server-1']);
    expect(nodesWith(s, 'node-pool', 'agents').map((n) => n.metadata.name)).toEqual([
      'agent-1',
      'agent-2',
    ]);
    for (const n of all(s, 'Node')) {
      const name = n.metadata.name ?? '';
      expect(nodeInfo(n)['kubeletVersion']).toBe('v1.34.3+k3s1');
      expect(nodeInfo(n)['osImage']).toBe('Ubuntu 22.04.5 LTS');
      expect(nodeInfo(n)['containerRuntimeVersion']).toMatch(/^containerd:\/\/.*-k3s\d+$/);
      expect(kernelOf(n)).toMatch(/^5\.15\.0-\d+-generic$/);
      expect(rec(n['spec'])['providerID']).toBe(`k3s://${name}`);
      expect(labelsOf(n)['node.kubernetes.io/instance-type']).toBe('k3s');
      expect(n.metadata.annotations?.['k3s.io/hostname']).toBe(name);
      // kube-proxy's settings would show here as --kube-proxy-arg; there are none.
      const args = JSON.parse(n.metadata.annotations?.['k3s.io/node-args'] ?? '[]') as string[];
      expect(args[0]).toBe(name === 'server-1' ? 'server' : 'agent');
      expect(args.some((a) => a.includes('kube-proxy-arg'))).toBe(false);
      expect(hostFacts(s, n).nft).toBe('1.0.2');
      const server = name === 'server-1';
      expect(labelsOf(n)['node-role.kubernetes.io/control-plane']).toBe(
        server ? 'true' : undefined,
      );
      expect(labelsOf(n)['node-role.kubernetes.io/master']).toBe(server ? 'true' : undefined);
    }
  });

  it('has no kube-proxy DaemonSet, ConfigMap or pod: kube-proxy is embedded in k3s', () => {
    const named = (kind: string): KubeObject[] =>
      all(s, kind).filter((o) => o.metadata.name?.includes('kube-proxy'));
    expect(named('DaemonSet')).toEqual([]);
    expect(named('ConfigMap')).toEqual([]);
    expect(named('Pod')).toEqual([]);
    for (const ds of all(s, 'DaemonSet'))
      expect(JSON.stringify(podSpec(ds))).not.toContain('kube-proxy');
  });

  it("has k3s's own kube-system objects and Traefik behind ServiceLB", () => {
    for (const name of ['coredns', 'local-path-provisioner', 'metrics-server', 'traefik'])
      expect(has(s, 'Deployment', name, 'kube-system'), name).toBe(true);
    expect(data(one(s, 'ConfigMap', 'coredns', 'kube-system'))['NodeHosts']).toContain(
      '192.168.50.11 server-1',
    );
    expect(has(s, 'ConfigMap', 'local-path-config', 'kube-system')).toBe(true);
    expect(rec(one(s, 'Service', 'kube-dns', 'kube-system')['spec'])['clusterIP']).toBe(
      '10.43.0.10',
    );
    const traefik = one(s, 'Service', 'traefik', 'kube-system');
    expect(serviceType(traefik)).toBe('LoadBalancer');
    const svclb = all(s, 'DaemonSet');
    expect(svclb.map((d) => d.metadata.name)).toEqual([
      `svclb-traefik-${(traefik.metadata.uid ?? '').slice(0, 8)}`,
    ]);
    expect(labelsOf(svclb[0]!)['svccontroller.k3s.cattle.io/svcname']).toBe('traefik');
    expect(firstContainer(podSpec(svclb[0]!))['image']).toMatch(/^rancher\/klipper-lb:v/);
  });
});

describe('traps', () => {
  let s: Scenario;
  const node = (name: string): KubeObject => one(s, 'Node', name);
  let config: Json;
  beforeAll(async () => {
    s = await scenario('traps');
    config = proxyConfig(one(s, 'ConfigMap', 'kube-proxy', 'kube-system'), 'config.conf');
  });

  it('is a kubeadm v1.32 cluster (the inverted kernel check) with 14 named nodes in 6 pools', () => {
    expect(s.header.spec.kubernetesVersion).toMatch(/^v1\.32\.\d+$/);
    expect(s.header.metadata.description).toContain('inverted');
    expect(
      all(s, 'Node')
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual([
      'batch-1',
      'batch-2',
      'cp-1',
      'edge-1',
      'edge-2',
      'general-1',
      'general-2',
      'legacy-1',
      'legacy-2',
      'legacy-3',
      'modern-1',
      'modern-2',
      'modern-3',
      'storage-1',
    ]);
    for (const n of all(s, 'Node'))
      expect(rec(n['spec'])['providerID']).toMatch(/^vsphere:\/\/[0-9a-f-]{36}$/);
  });

  it('has a pool below kernel 5.13 with nft 0.9.3, and an appliance pool on 4.18', () => {
    for (const name of ['legacy-1', 'legacy-2']) {
      expect(kernelOf(node(name))).toBe('5.4.0-80-generic');
      expect(hostFacts(s, node(name)).nft).toBe('0.9.3');
    }
    expect(kernelOf(node('storage-1'))).toBe('4.18.0-553.el8_10.x86_64');
    expect(hostFacts(s, node('storage-1')).nft).toBe('0.9.3');
  });

  it('has a node rebooted into an older kernel than its Node object says', () => {
    const facts = hostFacts(s, node('legacy-3'));
    expect(kernelOf(node('legacy-3'))).toBe('5.15.0-122-generic');
    expect(facts.kernel).toBe('5.4.0-80-generic');
    expect(facts.faults).toEqual(['kernel-reboot-rollback']);
    expect(kernelMinor(facts.kernel!)).toBeLessThan(5.013);
    expect(kernelMinor(kernelOf(node('legacy-3')))).toBeGreaterThanOrEqual(5.013);
  });

  it('puts each host fault on its named node', () => {
    const faults = Object.fromEntries(
      all(s, 'Node')
        .map((n) => [n.metadata.name, hostFacts(s, n).faults ?? []] as const)
        .filter(([, f]) => f.length > 0),
    );
    expect(faults).toEqual({
      'legacy-3': ['kernel-reboot-rollback'],
      'modern-2': ['ipvs-cleanup-skipped'],
      'modern-3': ['nftables-sync-failures'],
      'batch-1': ['kube-proxy-crashloop'],
      'batch-2': ['not-ready'],
    });
    const ready = arr(rec(node('batch-2')['status'])['conditions'])
      .map(rec)
      .find((c) => c['type'] === 'Ready');
    expect(ready?.['status']).toBe('Unknown');
    expect(hostFacts(s, node('modern-3')).nft).toBe('1.1.3');
  });

  it('has --proxy-mode=nftables next to --config in the kube-proxy DaemonSet, and an IPVS config', () => {
    const cmd = command(one(s, 'DaemonSet', 'kube-proxy', 'kube-system'));
    expect(cmd).toContain('--config=/var/lib/kube-proxy/config.conf');
    expect(cmd).toContain('--proxy-mode=nftables');
    expect(config['mode']).toBe('ipvs');
  });

  it('leaves mode blank in the storage pool kube-proxy config', () => {
    const storage = proxyConfig(
      one(s, 'ConfigMap', 'kube-proxy-storage', 'kube-system'),
      'config.conf',
    );
    expect(storage['mode']).toBe('');
    const ds = one(s, 'DaemonSet', 'kube-proxy-storage', 'kube-system');
    expect(command(ds).some((a) => a.startsWith('--proxy-mode'))).toBe(false);
    expect(rec(podSpec(ds)['nodeSelector'])['node-pool']).toBe('storage');
    // The main DaemonSet keeps off the storage pool, so each node runs exactly one kube-proxy.
    expect(JSON.stringify(podSpec(one(s, 'DaemonSet', 'kube-proxy', 'kube-system')))).toContain(
      '"operator":"NotIn","values":["storage"]',
    );
  });

  it('drafts the KubeProxyIPVS escape hatch and a skipKernelVersionCheck outside the live config', () => {
    const drafts = one(s, 'ConfigMap', 'kube-proxy-upgrade-drafts', 'kube-system');
    expect(rec(proxyConfig(drafts, 'v1.40-escape-hatch.conf')['featureGates'])).toEqual({
      KubeProxyIPVS: true,
    });
    expect(
      rec(proxyConfig(drafts, 'legacy-nftables.conf')['nftables'])['skipKernelVersionCheck'],
    ).toBe(true);
    expect(config['featureGates']).toBeUndefined();
  });

  it('has NodePort and LoadBalancer Services, nodePortAddresses unset, and nodes with secondary addresses', () => {
    expect(config['nodePortAddresses']).toBeNull();
    const partner = one(s, 'Service', 'partner-api', 'partners');
    expect(serviceType(partner)).toBe('NodePort');
    expect(partner.metadata.annotations?.['acme.example/f5-pool-members']).toContain(
      '192.168.50.21:30443',
    );
    expect(serviceType(one(s, 'Service', 'ingress-nginx-controller', 'ingress-nginx'))).toBe(
      'LoadBalancer',
    );
    for (const name of ['edge-1', 'edge-2']) {
      const addresses = hostFacts(s, node(name)).addresses ?? [];
      expect(addresses.length).toBeGreaterThanOrEqual(2);
      const nodeAddresses = arr(rec(node(name)['status'])['addresses']).map(rec);
      expect(addresses[0]).toBe(nodeAddresses.find((a) => a['type'] === 'InternalIP')?.['address']);
      expect(nodeAddresses.find((a) => a['type'] === 'ExternalIP')?.['address']).toBe(addresses[1]);
    }
  });

  it('has a hostNetwork Pod, a ConfigMap and a PrometheusRule calling a NodePort on 127.0.0.1', () => {
    const loopback = /127\.0\.0\.1:3[0-2]\d{3}/;
    const pod = one(s, 'Pod', 's3-gateway-storage-1', 'storage');
    expect(rec(pod['spec'])['hostNetwork']).toBe(true);
    expect(rec(pod['spec'])['nodeName']).toBe('storage-1');
    expect(pod.metadata.ownerReferences).toBeUndefined();
    expect(data(one(s, 'ConfigMap', 's3-gateway-haproxy', 'storage'))['haproxy.cfg']).toMatch(
      loopback,
    );
    expect(JSON.stringify(one(s, 'PrometheusRule', 's3-gateway-probes', 'storage'))).toMatch(
      loopback,
    );
    const minio = one(s, 'Service', 'minio', 'storage');
    expect(rec(arr(rec(minio['spec'])['ports'])[0])['nodePort']).toBe(30900);
    // It works today only because storage-1 runs kube-proxy in iptables mode.
    expect(hostFacts(s, node('storage-1')).routeLocalnet).toBe(true);
  });

  it('has kernels below 6.1 with INVALID packets counted and tcpBeLiberal off', () => {
    expect(rec(config['conntrack'])['tcpBeLiberal']).toBe(false);
    const general = nodesWith(s, 'node-pool', 'general');
    expect(general.length).toBeGreaterThan(0);
    for (const n of general) {
      expect(kernelMinor(kernelOf(n))).toBeLessThan(6.001);
      const invalid = hostFacts(s, n).conntrack?.invalidPerCpu ?? [];
      expect(invalid.some((v) => v > 0)).toBe(true);
    }
  });

  it('has a node whose conntrack table is more than 75% full', () => {
    const ct = hostFacts(s, node('general-2')).conntrack;
    expect(ct?.count).toBeDefined();
    expect(ct!.count! / ct!.max!).toBeGreaterThan(0.75);
    const others = all(s, 'Node')
      .filter((n) => n.metadata.name !== 'general-2')
      .map((n) => hostFacts(s, n).conntrack!)
      .filter((c) => c.count! / c.max! > 0.75);
    expect(others).toEqual([]);
  });

  it('has an alert on the IPVS/iptables-only failure metric', () => {
    const rule = JSON.stringify(one(s, 'PrometheusRule', 'kube-proxy-rules', 'monitoring'));
    expect(rule).toContain('kubeproxy_sync_proxy_rules_iptables_restore_failures_total');
    expect(rule).not.toContain('absent(');
  });

  it('has more than 1,000 Services', () => {
    expect(s.header.spec.generate?.services?.count).toBeGreaterThanOrEqual(1000);
    expect(services(s).length).toBeGreaterThan(1000);
  });

  it('has NodeLocal DNSCache in the IPVS layout', () => {
    const ds = one(s, 'DaemonSet', 'node-local-dns', 'kube-system');
    const args = arr(firstContainer(podSpec(ds))['args']).map(String);
    expect(args[args.indexOf('-localip') + 1]).toBe('169.254.20.10');
    expect(data(one(s, 'ConfigMap', 'node-local-dns', 'kube-system'))['Corefile']).toContain(
      'bind 169.254.20.10\n',
    );
    expect(has(s, 'Service', 'kube-dns-upstream', 'kube-system')).toBe(true);
    const kubelet = rec(
      parse(data(one(s, 'ConfigMap', 'kubelet-config', 'kube-system'))['kubelet']!),
    );
    expect(kubelet['clusterDNS']).toEqual(['169.254.20.10']);
  });

  it('has the IPVS-only settings and customised values that must be carried over', () => {
    expect(rec(config['ipvs'])).toMatchObject({
      scheduler: 'lc',
      strictARP: true,
      excludeCIDRs: ['10.0.100.0/24'],
      syncPeriod: '15s',
      minSyncPeriod: '2s',
      tcpTimeout: '15m0s',
      tcpFinTimeout: '30s',
      udpTimeout: '1m0s',
    });
    expect(rec(config['iptables'])).toMatchObject({ masqueradeAll: true, masqueradeBit: 13 });
    expect(rec(config['nftables'])).toMatchObject({
      masqueradeAll: false,
      masqueradeBit: null,
      syncPeriod: '0s',
    });
    expect(config['metricsBindAddress']).toBe('0.0.0.0:10249');
  });

  it('has Services with ClientIP session affinity', () => {
    const sticky = services(s)
      .filter((svc) => rec(svc['spec'])['sessionAffinity'] === 'ClientIP')
      .map((svc) => `${svc.metadata.namespace}/${svc.metadata.name}`)
      .sort();
    expect(sticky).toEqual(['legacy-erp/erp-gateway', 'shop/cart']);
  });

  it('runs a CNI that does not replace kube-proxy', () => {
    const calico = one(s, 'DaemonSet', 'calico-node', 'kube-system');
    const env = arr(firstContainer(podSpec(calico))['env']).map(rec);
    expect(env.find((e) => e['name'] === 'FELIX_BPFENABLED')?.['value']).toBe('false');
    expect(has(s, 'ConfigMap', 'cilium-config', 'kube-system')).toBe(false);
  });
});

// Starts every shipped scenario in the twin and points the real kubectl at it. For traps.yaml it runs
// the playbooks' own pre-flight commands (shared/playbook/) and checks that each trap shows up in
// their output the way it would on a real cluster.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../src/index.js';
import { startTwin } from '../../src/index.js';
import type { Kubectl, KubectlResult } from '../../src/testing/kubectl.js';
import { kubectlWith, rows } from '../../src/testing/kubectl.js';

/** Starts the scenario for the enclosing describe block; kubectl gets a private HOME and kubeconfig. */
function useTwin(scenario: string): { kubectl: Kubectl } {
  let twin: Twin | undefined;
  let dir = '';
  let run: Kubectl = () => Promise.reject(new Error(`the ${scenario} twin did not start`));
  beforeAll(async () => {
    twin = await startTwin({ scenario });
    dir = await mkdtemp(join(tmpdir(), `twin-${scenario}-`));
    await twin.writeKubeconfig(join(dir, 'kubeconfig'));
    // traps has over 1,000 Services: `get svc -A -o json` outgrows the default 1 MiB buffer.
    run = kubectlWith(join(dir, 'kubeconfig'), dir, { maxBuffer: 256 * 1024 * 1024 });
  }, 60_000);
  afterAll(async () => {
    await twin?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return { kubectl: (...args) => run(...args) };
}

async function ok(run: Promise<KubectlResult>): Promise<string> {
  const r = await run;
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

/** What `grep -A<n> 'ipvs:'` prints from the text. */
function grepAfter(text: string, pattern: string, after: number): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(pattern));
  return at < 0 ? [] : lines.slice(at, at + after + 1).map((l) => l.trim());
}

const kernelColumns = 'custom-columns=NAME:.metadata.name,KERNEL:.status.nodeInfo.kernelVersion';
const addressesJsonpath =
  'jsonpath={range .items[*]}{.metadata.name}{"\\t"}{range .status.addresses[*]}{.type}={.address}{" "}{end}{"\\n"}{end}';
const commandJsonpath = 'jsonpath={.spec.template.spec.containers[0].command}';

interface ServiceList {
  items: {
    metadata: { name: string; namespace: string };
    spec: { type?: string; sessionAffinity?: string };
  }[];
}

describe('traps: the playbooks pre-flight commands show every trap', () => {
  const { kubectl } = useTwin('traps');

  it('serves the v1.32 version the scenario chose', async () => {
    const r = await ok(kubectl('version'));
    expect(r).toContain('Server Version: v1.32.9');
  });

  it('kernel per node: the sub-5.13 pools show, the rolled-back node does not', async () => {
    // kubectl get nodes -o custom-columns=NAME:.metadata.name,KERNEL:.status.nodeInfo.kernelVersion
    const table = rows(await ok(kubectl('get', 'nodes', '-o', kernelColumns)));
    expect(table[0]).toEqual(['NAME', 'KERNEL']);
    const kernels: Record<string, string> = Object.fromEntries(
      table.slice(1).map((r) => [r[0] ?? '', r[1] ?? '']),
    );
    expect(kernels['legacy-1']).toBe('5.4.0-80-generic');
    expect(kernels['legacy-2']).toBe('5.4.0-80-generic');
    expect(kernels['storage-1']).toBe('4.18.0-553.el8_10.x86_64');
    // The blind spot: legacy-3 runs 5.4 after a reboot, but its Node object still says 5.15.
    expect(kernels['legacy-3']).toBe('5.15.0-122-generic');
    expect(kernels['modern-3']).toBe('6.12.43+deb13-amd64');
    expect(Object.keys(kernels)).toHaveLength(14);
  });

  it('the DaemonSet command: --proxy-mode=nftables sits next to --config and does nothing', async () => {
    // kubectl -n kube-system get ds kube-proxy -o jsonpath='{.spec.template.spec.containers[0].command}'
    const out = await ok(
      kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy', '-o', commandJsonpath),
    );
    const command = JSON.parse(out) as string[];
    expect(command).toEqual([
      '/usr/local/bin/kube-proxy',
      '--config=/var/lib/kube-proxy/config.conf',
      '--hostname-override=$(NODE_NAME)',
      '--proxy-mode=nftables',
    ]);
    // The config file it reads still says ipvs.
    const conf = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'cm',
        'kube-proxy',
        '-o',
        'jsonpath={.data.config\\.conf}',
      ),
    );
    expect(conf).toContain('\nmode: ipvs\n');
  });

  it('mode left blank in the storage pool config, which a second kube-proxy DaemonSet mounts', async () => {
    const ds = rows(await ok(kubectl('-n', 'kube-system', 'get', 'ds')));
    expect(ds.map((r) => r[0])).toEqual(
      expect.arrayContaining(['kube-proxy', 'kube-proxy-storage']),
    );
    const conf = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'cm',
        'kube-proxy-storage',
        '-o',
        'jsonpath={.data.config\\.conf}',
      ),
    );
    expect(conf).toContain('\nmode: ""\n');
  });

  it('NodePort and LoadBalancer Services in kubectl get svc -A, over 1,000 Services in all', async () => {
    // kubectl get svc -A (the playbook filters NodePort with a field selector; see below)
    const table = rows(await ok(kubectl('get', 'svc', '-A')));
    expect(table[0]).toEqual([
      'NAMESPACE',
      'NAME',
      'TYPE',
      'CLUSTER-IP',
      'EXTERNAL-IP',
      'PORT(S)',
      'AGE',
    ]);
    const byName = new Map(table.slice(1).map((r) => [`${r[0]}/${r[1]}`, r]));
    expect(byName.get('partners/partner-api')?.slice(2, 6)).toEqual([
      'NodePort',
      '10.108.77.140',
      '<none>',
      '443:30443/TCP',
    ]);
    expect(byName.get('storage/minio')?.slice(2, 6)).toEqual([
      'NodePort',
      '10.99.140.9',
      '<none>',
      '9000:30900/TCP',
    ]);
    expect(byName.get('ingress-nginx/ingress-nginx-controller')?.slice(2, 6)).toEqual([
      'LoadBalancer',
      '10.104.201.37',
      '10.0.4.240',
      '80:31080/TCP,443:31443/TCP',
    ]);
    expect(table.length - 1).toBeGreaterThan(1000);
  });

  it('kubectl get svc -A --field-selector spec.type=NodePort lists the NodePort Services', async () => {
    // 2026 Playbook pre-flight check 2. Services have spec.type and spec.clusterIP field selectors
    // from v1.31 (kubernetes#123905); the scenario serves v1.32.
    const all = rows(await ok(kubectl('get', 'svc', '-A'))).slice(1);
    // Without AGE, which may tick between the two lists.
    const nodePorts = all.filter((r) => r[2] === 'NodePort').map((r) => r.slice(0, 6));
    expect(nodePorts.length).toBeGreaterThan(0);
    const table = rows(
      await ok(kubectl('get', 'svc', '-A', '--field-selector', 'spec.type=NodePort')),
    );
    expect(table[0]).toEqual([
      'NAMESPACE',
      'NAME',
      'TYPE',
      'CLUSTER-IP',
      'EXTERNAL-IP',
      'PORT(S)',
      'AGE',
    ]);
    expect(table.slice(1).map((r) => r.slice(0, 6))).toEqual(nodePorts);
    expect(table.slice(1).map((r) => `${r[0]}/${r[1]}`)).toEqual(
      expect.arrayContaining(['partners/partner-api', 'storage/minio']),
    );
    const byIp = rows(
      await ok(kubectl('get', 'svc', '-A', '--field-selector', 'spec.clusterIP=10.99.140.9')),
    );
    expect(byIp.slice(1).map((r) => `${r[0]}/${r[1]}`)).toEqual(['storage/minio']);
  });

  it('node addresses: the edge nodes answer on a secondary (DMZ) address', async () => {
    // kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{"\t"}{range .status.addresses[*]}...'
    const out = await ok(kubectl('get', 'nodes', '-o', addressesJsonpath));
    const lines = Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((l) => l.split('\t') as [string, string]),
    );
    expect(lines['edge-1']).toBe('InternalIP=10.0.4.21 ExternalIP=192.168.50.21 Hostname=edge-1 ');
    expect(lines['edge-2']).toBe('InternalIP=10.0.4.22 ExternalIP=192.168.50.22 Hostname=edge-2 ');
    expect(lines['general-1']).toBe('InternalIP=10.0.2.11 Hostname=general-1 ');
  });

  it('sessionAffinity ClientIP Services (the jq query, done in the test)', async () => {
    // kubectl get svc -A -o json | jq -r '.items[] | select(.spec.sessionAffinity=="ClientIP") | ...'
    const list = JSON.parse(await ok(kubectl('get', 'svc', '-A', '-o', 'json'))) as ServiceList;
    const sticky = list.items
      .filter((svc) => svc.spec.sessionAffinity === 'ClientIP')
      .map((svc) => `${svc.metadata.namespace}/${svc.metadata.name}`)
      .sort();
    expect(sticky).toEqual(['legacy-erp/erp-gateway', 'shop/cart']);
  });

  it('the scheduler and the other IPVS-only settings in the kube-proxy ConfigMap', async () => {
    // kubectl -n kube-system get cm kube-proxy -o yaml | grep -A3 'ipvs:'
    const yaml = await ok(kubectl('-n', 'kube-system', 'get', 'cm', 'kube-proxy', '-o', 'yaml'));
    // With excludeCIDRs set, the playbook's -A3 stops before the scheduler line; -A8 shows it all.
    expect(grepAfter(yaml, 'ipvs:', 3)).toEqual([
      'ipvs:',
      'excludeCIDRs:',
      '- 10.0.100.0/24',
      'minSyncPeriod: 2s',
    ]);
    expect(grepAfter(yaml, 'ipvs:', 8)).toEqual(
      expect.arrayContaining(['scheduler: lc', 'strictARP: true', 'syncPeriod: 15s']),
    );
    expect(yaml).toContain('masqueradeAll: true');
    expect(yaml).toContain('masqueradeBit: 13');
    expect(yaml).toContain('tcpBeLiberal: false');
    expect(yaml).toContain('nodePortAddresses: null');
  });

  it('the PrometheusRules: the old failure metric and a loopback NodePort probe', async () => {
    // kubectl get prometheusrules -A
    const table = rows(await ok(kubectl('get', 'prometheusrules', '-A')));
    expect(table[0]).toEqual(['NAMESPACE', 'NAME', 'AGE']);
    expect(table.slice(1).map((r) => `${r[0]}/${r[1]}`)).toEqual([
      'monitoring/kube-proxy-rules',
      'storage/s3-gateway-probes',
    ]);
    const yaml = await ok(kubectl('get', 'prometheusrules', '-A', '-o', 'yaml'));
    expect(yaml).toContain('kubeproxy_sync_proxy_rules_iptables_restore_failures_total');
    expect(yaml).not.toContain('nftables_sync_failures');
    expect(yaml).toMatch(/127\.0\.0\.1:3[0-2]\d{3}/);
  });

  it('127.0.0.1:<nodePort> callers in host-network manifests and configs', async () => {
    const pods = await ok(kubectl('get', 'pods', '-A', '-o', 'yaml'));
    const cms = await ok(kubectl('get', 'cm', '-A', '-o', 'yaml'));
    expect(cms).toContain('server minio-nodeport 127.0.0.1:30900');
    const hostNet = await ok(
      kubectl(
        '-n',
        'storage',
        'get',
        'pod',
        's3-gateway-storage-1',
        '-o',
        'jsonpath={.spec.hostNetwork} {.spec.nodeName}',
      ),
    );
    expect(hostNet).toBe('true storage-1');
    expect(pods).toContain('s3-gateway-haproxy');
  });

  it('NodeLocal DNSCache listens on the link-local IP only', async () => {
    const args = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'ds',
        'node-local-dns',
        '-o',
        'jsonpath={.spec.template.spec.containers[0].args}',
      ),
    );
    expect(JSON.parse(args)).toEqual([
      '-localip',
      '169.254.20.10',
      '-conf',
      '/etc/Corefile',
      '-upstreamsvc',
      'kube-dns-upstream',
    ]);
    const svc = rows(await ok(kubectl('-n', 'kube-system', 'get', 'svc', 'kube-dns-upstream')));
    expect(svc[1]?.slice(0, 2)).toEqual(['kube-dns-upstream', 'ClusterIP']);
  });

  it('the escape hatch is drafted, not live', async () => {
    const drafts = await ok(
      kubectl('-n', 'kube-system', 'get', 'cm', 'kube-proxy-upgrade-drafts', '-o', 'yaml'),
    );
    expect(drafts).toContain('KubeProxyIPVS: true');
    expect(drafts).toContain('skipKernelVersionCheck: true');
  });

  it('the NotReady node', async () => {
    const table = rows(await ok(kubectl('get', 'nodes')));
    expect(table.find((r) => r[0] === 'batch-2')?.[1]).toBe('NotReady');
    expect(table.filter((r) => r[1] === 'NotReady')).toHaveLength(1);
  });
});

describe('eks-al2-al2023', () => {
  const { kubectl } = useTwin('eks-al2-al2023');

  it('serves the EKS version and the two node groups', async () => {
    expect(await ok(kubectl('version'))).toContain('Server Version: v1.33.5-eks-3025e55');
    const table = rows(
      await ok(kubectl('get', 'nodes', '-L', 'eks.amazonaws.com/nodegroup', '--no-headers')),
    );
    const groups = table.map((r) => r[r.length - 1]).sort();
    expect(groups).toEqual(['ng-al2', 'ng-al2', 'ng-al2023', 'ng-al2023', 'ng-al2023']);
    const kernels = rows(await ok(kubectl('get', 'nodes', '-o', kernelColumns))).slice(1);
    expect(kernels).toContainEqual(['ip-10-0-12-87.ec2.internal', '5.10.238-231.953.amzn2.x86_64']);
    expect(kernels).toContainEqual([
      'ip-10-0-14-203.ec2.internal',
      '6.1.134-150.224.amzn2023.x86_64',
    ]);
    const ids = await ok(kubectl('get', 'nodes', '-o', 'jsonpath={.items[*].spec.providerID}'));
    expect(ids.split(' ').every((id) => /^aws:\/\/\/us-east-1[a-c]\/i-0[0-9a-f]+$/.test(id))).toBe(
      true,
    );
  });

  it('the 2026 Playbook check 5 works as written on EKS (kube-proxy-config)', async () => {
    // kubectl -n kube-system get cm kube-proxy-config -o yaml | grep -A3 'ipvs:'
    const yaml = await ok(
      kubectl('-n', 'kube-system', 'get', 'cm', 'kube-proxy-config', '-o', 'yaml'),
    );
    expect(grepAfter(yaml, 'ipvs:', 3)).toEqual([
      'ipvs:',
      'excludeCIDRs: null',
      'minSyncPeriod: 0s',
      'scheduler: "rr"',
    ]);
    expect(yaml).toContain('mode: "ipvs"');
    expect(yaml).toContain('metricsBindAddress: 0.0.0.0:10249');
  });

  it('the EKS kube-proxy command and labels', async () => {
    const command = JSON.parse(
      await ok(kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy', '-o', commandJsonpath)),
    ) as string[];
    expect(command).toEqual([
      'kube-proxy',
      '--v=2',
      '--config=/var/lib/kube-proxy-config/config',
      '--hostname-override=$(NODE_NAME)',
    ]);
    const selected = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'ds',
        '-l',
        'eks.amazonaws.com/component=kube-proxy',
        '-o',
        'name',
      ),
    );
    expect(selected.trim()).toBe('daemonset.apps/kube-proxy');
    const version = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'ds',
        'aws-node',
        '-o',
        'jsonpath={.metadata.labels.app\\.kubernetes\\.io/version}',
      ),
    );
    expect(version).toBe('v1.20.4');
  });
});

describe('aks', () => {
  const { kubectl } = useTwin('aks');

  it('lists the two pools', async () => {
    const table = rows(
      await ok(kubectl('get', 'nodes', '-L', 'kubernetes.azure.com/agentpool', '--no-headers')),
    );
    expect(table.map((r) => r[0])).toEqual([
      'aks-nodepool1-12345678-vmss000000',
      'aks-nodepool1-12345678-vmss000001',
      'aks-nodepool1-12345678-vmss000002',
      'aks-userpool-12345678-vmss000000',
      'aks-userpool-12345678-vmss000001',
    ]);
    const kernels = rows(await ok(kubectl('get', 'nodes', '-o', kernelColumns))).slice(1);
    expect(new Set(kernels.map((r) => r[1]))).toEqual(new Set(['5.15.0-1079-azure']));
  });

  it('kube-proxy is reconciled by the addon manager and configured by flags', async () => {
    const command = JSON.parse(
      await ok(kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy', '-o', commandJsonpath)),
    ) as string[];
    expect(command).toContain('--proxy-mode=ipvs');
    expect(command.some((a) => a.startsWith('--config'))).toBe(false);
    const labels = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'ds',
        'kube-proxy',
        '-o',
        'jsonpath={.metadata.labels.addonmanager\\.kubernetes\\.io/mode}',
      ),
    );
    expect(labels).toBe('Reconcile');
    const cm = await kubectl('-n', 'kube-system', 'get', 'cm', 'kube-proxy');
    expect(cm.code).toBe(1);
    expect(cm.stderr.trim()).toBe(
      'Error from server (NotFound): configmaps "kube-proxy" not found',
    );
  });
});

describe('cilium-kpr', () => {
  const { kubectl } = useTwin('cilium-kpr');

  it('has no kube-proxy and Cilium replaces it', async () => {
    const ds = await kubectl('-n', 'kube-system', 'get', 'ds', 'kube-proxy');
    expect(ds.code).toBe(1);
    expect(ds.stderr.trim()).toBe(
      'Error from server (NotFound): daemonsets.apps "kube-proxy" not found',
    );
    const kpr = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'cm',
        'cilium-config',
        '-o',
        'jsonpath={.data.kube-proxy-replacement}',
      ),
    );
    expect(kpr).toBe('true');
    const all = rows(await ok(kubectl('-n', 'kube-system', 'get', 'ds')));
    expect(all.slice(1).map((r) => r[0])).toEqual(['cilium', 'cilium-envoy']);
  });
});

describe('nftables-done', () => {
  const { kubectl } = useTwin('nftables-done');

  it('is already in nftables mode with the settings pinned', async () => {
    const conf = await ok(
      kubectl(
        '-n',
        'kube-system',
        'get',
        'cm',
        'kube-proxy',
        '-o',
        'jsonpath={.data.config\\.conf}',
      ),
    );
    expect(conf).toContain('\nmode: nftables\n');
    expect(conf).toContain('\nnodePortAddresses:\n- primary\n');
    expect(conf).toContain('tcpBeLiberal: true');
    const rules = await ok(kubectl('get', 'prometheusrules', '-A', '-o', 'yaml'));
    expect(rules).toContain('absent(kubeproxy_sync_proxy_rules_nftables_sync_failures_total)');
  });
});

describe('kubeadm-ipvs and large-generated (existing) still serve', () => {
  describe('kubeadm-ipvs', () => {
    const { kubectl } = useTwin('kubeadm-ipvs');
    it('lists its nodes', async () => {
      expect((await ok(kubectl('get', 'nodes', '-o', 'name'))).trim().split('\n')).toHaveLength(6);
    });
  });

  describe('large-generated', () => {
    const { kubectl } = useTwin('large-generated');
    it('lists its nodes', async () => {
      const names = (await ok(kubectl('get', 'nodes', '-o', 'name'))).trim().split('\n');
      expect(names).toHaveLength(5000);
    }, 60_000);
  });
});

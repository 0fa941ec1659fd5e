// Every check seen firing and not firing on the twin's shipped scenarios, through the real
// Kubernetes adapter, real probe pods and real exec: the same path as production.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClusterDirectory } from '../../../src/adapters/kubernetes/directory.js';
import { checkIds } from '../../../src/checks/index.js';
import { clusterConfig, type ClusterConfig } from '../../../src/config.js';
import { worstSeverity, type Finding, type Severity } from '../../../src/core/findings.js';
import { preflightRun } from '../../../src/engine/preflight-run.js';
import { systemClock } from '../../../src/ports/clock.js';
import { startTwin } from '@proxy-migrate/twin';
import { captureLog } from '../../helpers/log-capture.js';

const scenarios = [
  'kubeadm-ipvs',
  'traps',
  'eks-al2-al2023',
  'aks',
  'cilium-kpr',
  'nftables-done',
  'kubeadm-blank-mode',
  'k3s',
] as const;
type Matrix = Record<string, Record<string, Severity>>;

/** The worst severity each check reported on a scenario ('pass' when it found nothing). */
const matrix: Matrix = {};
/** Every finding of each scenario, for checks across all of them. */
const findingsOf: Record<string, Finding[]> = {};
let dir: string;

function cluster(name: string, kubeconfig: string): ClusterConfig {
  return clusterConfig({ name, kubeconfig, context: name, poolLabel: 'node-pool' });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-checks-'));
  for (const scenario of scenarios) {
    const twin = await startTwin({ scenario, speed: 50 });
    try {
      const kubeconfig = join(dir, `${scenario}.yaml`);
      await twin.writeKubeconfig(kubeconfig);
      const config = cluster(twin.name, kubeconfig);
      const directory = new KubeClusterDirectory(
        { clusters: [config], defaultKubeconfigs: [] },
        captureLog().logger,
      );
      const shell = directory.nodeShell(config.name, `pf-test-${scenario}`);
      const { report } = await preflightRun({
        cluster: directory.get(config.name),
        shell,
        clock: systemClock,
        poolLabel: 'node-pool',
      }).finally(() => shell.close());
      findingsOf[scenario] = report.findings;
      const checks = [...new Set(report.findings.map((f) => f.check))];
      matrix[scenario] = Object.fromEntries(
        checks.map((id) => [id, worstSeverity(report.findings.filter((f) => f.check === id))]),
      );
    } finally {
      await twin.close();
    }
  }
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pre-flight checks on the twin scenarios', () => {
  it('runs every check on every scenario', () => {
    for (const scenario of scenarios)
      expect(Object.keys(matrix[scenario] ?? {}).sort()).toEqual([...checkIds].sort());
  });

  it('runs every check to completion: no check crashed on any scenario', () => {
    const crashed = scenarios.flatMap((scenario) =>
      (findingsOf[scenario] ?? [])
        .filter((f) => /could not run/.test(f.title))
        .map((f) => `${scenario}: ${f.check}: ${f.title}: ${f.detail}`),
    );
    expect(scenarios.every((s) => (findingsOf[s] ?? []).length > 0)).toBe(true);
    expect(crashed).toEqual([]);
  });

  it('sees every check fire on one scenario and answer differently on another', () => {
    // Informational checks (nodelocaldns, config-carryover) fire as info and pass otherwise;
    // the others raise a warning or a blocker somewhere and stay quieter elsewhere.
    const missing = checkIds.flatMap((id) => {
      const severities = scenarios.map((s) => matrix[s]?.[id]);
      const fired = severities.some((s) => s !== 'pass');
      const distinct = new Set(severities).size;
      return fired && distinct >= 2
        ? []
        : [`${id}: ${scenarios.map((s, i) => `${s}=${severities[i]}`).join(' ')}`];
    });
    expect(missing).toEqual([]);
  });

  it('blocks the traps that would break a node, where they are', () => {
    expect(matrix['traps']?.['kernel-version']).toBe('block');
    expect(matrix['traps']?.['nft-version']).toBe('block');
    expect(matrix['kubeadm-ipvs']?.['kernel-version']).toBe('block');
    expect(matrix['nftables-done']?.['kernel-version']).not.toBe('block');
    expect(matrix['cilium-kpr']?.['kube-proxy-present']).toBe('info');
    expect(matrix['eks-al2-al2023']?.['managed-platform']).toBe('warn');
    expect(matrix['aks']?.['managed-platform']).toBe('warn');
    expect(matrix['traps']?.['service-scale']).toBe('warn');
    expect(matrix['traps']?.['alert-metric-rename']).toBe('warn');
    // The 127.0.0.1:30900 callers sit on the storage pool, whose kube-proxy runs iptables (its
    // /proxyMode says so): they work today and break in nftables. In IPVS they would be info.
    expect(matrix['traps']?.['localhost-nodeport']).toBe('warn');
    expect(matrix['traps']?.['mode-flag-ignored']).toBe('warn');
    expect(matrix['kubeadm-blank-mode']?.['mode-explicit']).toBe('warn');
    expect(matrix['k3s']?.['kube-proxy-present']).toBe('warn');
  });

  it('reads the hosts’ own addresses: the edge nodes’ DMZ NIC and the VIP kubelet does not report', () => {
    // traps: nodePortAddresses unset, NodePort Services, edge-1 holds 192.168.50.21 (its Node's
    // ExternalIP) and the keepalived VIP 10.0.100.10 (on the host only), edge-2 192.168.50.22.
    expect(matrix['traps']?.['node-secondary-addresses']).toBe('warn');
    const traps = (findingsOf['traps'] ?? []).filter((f) => f.check === 'node-secondary-addresses');
    const edge = traps.find((f) => f.scope.kind === 'pool' && f.scope.name === 'edge');
    expect(edge).toMatchObject({ severity: 'warn', subjects: ['edge-1', 'edge-2'] });
    expect(edge?.detail).toMatch(
      /edge-1: [^;]*10\.0\.100\.10 \(on eth\d, not on the Node object\)/,
    );
    expect(edge?.detail).toMatch(
      /edge-1: [^;]*192\.168\.50\.21 \(on eth\d, ExternalIP on the Node object\)/,
    );
    expect(edge?.detail).toMatch(
      /edge-2: 192\.168\.50\.22 \(on eth\d, ExternalIP on the Node object\); primary 10\.0\.4\.22/,
    );
    expect(edge?.detail).toContain('read with `ip -j addr`');
    // No other traps node is multi-homed; the NotReady one could not be read, and says so.
    const others = traps.filter((f) => f !== edge);
    expect(others.every((f) => f.title.includes('host addresses could not be read'))).toBe(true);
    expect(others.flatMap((f) => f.subjects ?? [])).toContain('batch-2');
    // Single-homed nodes on a probed cluster: nothing outside primary.
    for (const scenario of ['kubeadm-ipvs', 'nftables-done'] as const) {
      const found = (findingsOf[scenario] ?? []).filter(
        (f) => f.check === 'node-secondary-addresses' && f.scope.kind === 'pool',
      );
      expect(found.filter((f) => !f.title.includes('could not be read'))).toEqual([]);
    }
  });
});

// The version-dependent claims the fact-check corrected (shared/reference/preflight-factcheck.md,
// docs/preflight-claims.md), seen through the real adapter, probe pods and exec on the twin: the
// shipped kubeadm-ipvs scenario turned into a kube-proxy 1.31 cluster with the mh scheduler and a
// pool without host nft, beside the shipped 1.33 one; both carry an alert on a retired metric.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClusterDirectory } from '../../../src/adapters/kubernetes/directory.js';
import { clusterConfig } from '../../../src/config.js';
import type { Finding } from '../../../src/core/findings.js';
import { nodeGate } from '../../../src/core/node-gate.js';
import type { NodeFacts } from '../../../src/core/snapshot.js';
import { preflightRun } from '../../../src/engine/preflight-run.js';
import { systemClock } from '../../../src/ports/clock.js';
import { startTwin } from '@proxy-migrate/twin';
import { captureLog } from '../../helpers/log-capture.js';

interface Run {
  findings: Finding[];
  nodeFacts: NodeFacts[];
}

let dir: string;
let findings: Finding[] = [];
let nodeFacts: NodeFacts[] = [];
/** The shipped kube-proxy 1.33 scenario, the twin of the 1.31 one for the version-aware wording. */
let at133: Run = { findings: [], nodeFacts: [] };

/** One substitution that must apply, so a changed shipped scenario fails loudly here. */
function replaceOnce(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

/** A PrometheusRule alerting on the counter nftables mode does not export. */
const RESTORE_ALERT = `---
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: kube-proxy-rules
  namespace: monitoring
spec:
  groups:
    - name: kube-proxy.rules
      rules:
        - alert: KubeProxyRuleRestoreFailing
          expr: increase(kubeproxy_sync_proxy_rules_iptables_restore_failures_total[15m]) > 0
          for: 15m
`;

/** The pre-flight of one scenario file through the real adapter and probe pods. */
async function preflightOf(scenario: string, label: string): Promise<Run> {
  const twin = await startTwin({ scenario, speed: 50 });
  try {
    const kubeconfig = join(dir, `${label}-kubeconfig.yaml`);
    await twin.writeKubeconfig(kubeconfig);
    const config = clusterConfig({
      name: twin.name,
      kubeconfig,
      context: twin.name,
      poolLabel: 'node-pool',
    });
    const directory = new KubeClusterDirectory(
      { clusters: [config], defaultKubeconfigs: [] },
      captureLog().logger,
    );
    const shell = directory.nodeShell(config.name, `pf-test-${label}`);
    const { report, snapshot } = await preflightRun({
      cluster: directory.get(config.name),
      shell,
      clock: systemClock,
      poolLabel: 'node-pool',
    }).finally(() => shell.close());
    return { findings: report.findings, nodeFacts: snapshot.nodeFacts };
  } finally {
    await twin.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-factcheck-'));
  const shipped = join(import.meta.dirname, '../../../packages/twin/scenarios/kubeadm-ipvs.yaml');
  const original = await readFile(shipped, 'utf8');
  let text = original.replaceAll('v1.33.4', 'v1.31.6');
  text = replaceOnce(text, '  name: kubeadm-ipvs\n', '  name: factcheck-131\n');
  text = replaceOnce(text, 'scheduler: rr', 'scheduler: mh');
  text = replaceOnce(
    text,
    "- match: 'label:node-pool=green'\n      nft: '1.0.9'",
    "- match: 'label:node-pool=green'\n      nft: 'none'",
  );
  const scenario131 = join(dir, 'factcheck-131.yaml');
  await writeFile(scenario131, `${text.trimEnd()}\n${RESTORE_ALERT}`);
  const scenario133 = join(dir, 'factcheck-133.yaml');
  await writeFile(
    scenario133,
    `${replaceOnce(original, '  name: kubeadm-ipvs\n', '  name: factcheck-133\n').trimEnd()}\n${RESTORE_ALERT}`,
  );

  ({ findings, nodeFacts } = await preflightOf(scenario131, 'factcheck-131'));
  at133 = await preflightOf(scenario133, 'factcheck-133');
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const of = (check: string, pool?: string) =>
  findings.filter((f) => f.check === check && (pool === undefined || f.scope.name === pool));

describe('fact-checked claims on a kube-proxy 1.31 twin (mh scheduler, a pool without host nft)', () => {
  it('kernel-version: kube-proxy 1.31 does not refuse kernel 5.4, and the node still blocks', () => {
    const [f, ...rest] = of('kernel-version', 'legacy');
    expect(rest).toEqual([]);
    expect(f?.severity).toBe('block');
    expect(f?.detail).toContain('kube-proxy 1.31 does not refuse these kernels');
    expect(f?.detail).not.toContain('requires kernel 5.13');
    expect(f?.detail).not.toContain('before it checks the kernel');
    expect(f?.detail).toContain('`modprobe -va ip_vs` fails');
    expect(f?.remedy).toContain(
      "setting KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK is what turns kube-proxy's own kernel check on",
    );
    const legacy = f?.subjects[0] ?? '';
    const gate = nodeGate(
      findings,
      legacy,
      'legacy',
      nodeFacts.find((n) => n.node === legacy),
    );
    expect(gate.ok).toBe(false);
    expect(gate.reasons.some((r) => r.startsWith('kernel-version:'))).toBe(true);
  });

  it('kube-proxy-version: 1.31 warns that this pre-flight is the only kernel guard', () => {
    const [f] = of('kube-proxy-version');
    expect(f?.severity).toBe('warn');
    expect(f?.title).toBe(
      'kube-proxy v1.31.6 does not check the kernel in nftables mode: this pre-flight is the only guard',
    );
  });

  it('ipvs-scheduler: mh needs no sessionAffinity (kube-proxy always sets mh-port)', () => {
    const [f, ...rest] = of('ipvs-scheduler');
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'info', subjects: [] });
    expect(f?.detail).toContain('always sets the mh-port flag');
    expect(f?.commands.join('\n')).not.toContain('sessionAffinity');
  });

  it('nft-version: a pool without host nft gets an info note, the old-nft pool still blocks', () => {
    const [green, ...more] = of('nft-version', 'green');
    expect(more).toEqual([]);
    expect(green?.severity).toBe('info');
    expect(green?.title).toContain('(kube-proxy does not need it)');
    expect(green?.detail).toContain('nothing needs installing');
    // The probe reads "no nft on the host" as an answer: no probe error, and the node gate lets
    // the node through as far as nft goes.
    const node = green?.subjects[0] ?? '';
    const facts = nodeFacts.find((n) => n.node === node);
    expect(facts).toMatchObject({ hostNftMissing: true, errors: [] });
    expect(of('node-probes').filter((f) => f.subjects.includes(node))).toEqual([]);
    expect(nodeGate(findings, node, 'green', facts).reasons).toEqual([]);
    const [legacy] = of('nft-version', 'legacy');
    expect(legacy?.severity).toBe('block');
    expect(legacy?.detail).toContain('0.9.8 or older: unusable next to kube-proxy’s rules');
  });

  it('alert-metric-rename on 1.31: the ip_family label is announced for 1.33, absent() on the counter is a risk', () => {
    const [f, ...rest] = of('alert-metric-rename');
    expect(rest).toEqual([]);
    expect(f?.severity).toBe('warn');
    expect(f?.remedy).toContain('From kube-proxy 1.33 these counters carry an ip_family label');
    expect(f?.remedy).toContain('may page forever on healthy nodes');
    expect(f?.commands.join('\n')).toContain(
      'absent(kubeproxy_sync_proxy_rules_last_timestamp_seconds) == 1',
    );
  });
});

describe('the same claims on the shipped kube-proxy 1.33 twin', () => {
  const of133 = (check: string, pool?: string) =>
    at133.findings.filter(
      (f) => f.check === check && (pool === undefined || f.scope.name === pool),
    );

  it('kernel-version on 1.33: kube-proxy refuses kernel 5.4 after its IPVS cleanup; do not set the skip variable', () => {
    const [f, ...rest] = of133('kernel-version', 'legacy');
    expect(rest).toEqual([]);
    expect(f?.severity).toBe('block');
    expect(f?.detail).toContain('before it checks the kernel');
    expect(f?.detail).toContain('kube-proxy 1.33 then fails with "requires kernel 5.13 or later"');
    expect(f?.detail).not.toContain('does not refuse');
    expect(f?.detail).toContain('`modprobe -va ip_vs` fails');
    expect(f?.remedy).toContain(
      "Do not set KUBE_PROXY_NFTABLES_SKIP_KERNEL_VERSION_CHECK: from 1.33 it turns kube-proxy's kernel check off",
    );
  });

  it('kube-proxy-version on 1.33: GA, and kube-proxy itself refuses kernels below 5.13', () => {
    const [f] = of133('kube-proxy-version');
    expect(f).toMatchObject({
      severity: 'info',
      title: 'kube-proxy v1.33.4: nftables mode is GA and refuses kernels below 5.13',
    });
    expect(f?.detail).toContain('platformCleanup runs first in Options.Run');
  });

  it('ipvs-scheduler on 1.33 with rr: nothing to replace, no mh wording', () => {
    const [f] = of133('ipvs-scheduler');
    expect(f).toMatchObject({ severity: 'info', subjects: [] });
    expect(f?.detail).toContain('rr encodes no intent beyond spreading connections');
    expect(f?.detail).not.toContain('mh-port');
  });

  it('alert-metric-rename on 1.33: aggregate over ip_family, absent() on the counter is a risk', () => {
    const [f] = of133('alert-metric-rename');
    expect(f?.severity).toBe('warn');
    expect(f?.remedy).toContain('kube-proxy 1.33+ labels these counters with ip_family');
    expect(f?.remedy).toContain('may page forever on healthy nodes');
  });
});

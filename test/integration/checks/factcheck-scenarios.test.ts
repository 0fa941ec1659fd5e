// The version-dependent claims the fact-check corrected (shared/reference/preflight-factcheck.md),
// seen through the real adapter, probe pods and exec on the twin: the shipped kubeadm-ipvs
// scenario turned into a kube-proxy 1.31 cluster with the mh scheduler and a pool without host nft.
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

let dir: string;
let findings: Finding[] = [];
let nodeFacts: NodeFacts[] = [];

/** One substitution that must apply, so a changed shipped scenario fails loudly here. */
function replaceOnce(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pm-factcheck-'));
  const shipped = join(import.meta.dirname, '../../../packages/twin/scenarios/kubeadm-ipvs.yaml');
  let text = await readFile(shipped, 'utf8');
  text = text.replaceAll('v1.33.4', 'v1.31.6');
  text = replaceOnce(text, '  name: kubeadm-ipvs\n', '  name: factcheck-131\n');
  text = replaceOnce(text, 'scheduler: rr', 'scheduler: mh');
  text = replaceOnce(
    text,
    "- match: 'label:node-pool=green'\n      nft: '1.0.9'",
    "- match: 'label:node-pool=green'\n      nft: 'none'",
  );
  const scenario = join(dir, 'factcheck-131.yaml');
  await writeFile(scenario, text);

  const twin = await startTwin({ scenario, speed: 50 });
  try {
    const kubeconfig = join(dir, 'kubeconfig.yaml');
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
    const shell = directory.nodeShell(config.name, 'pf-test-factcheck');
    const { report, snapshot } = await preflightRun({
      cluster: directory.get(config.name),
      shell,
      clock: systemClock,
      poolLabel: 'node-pool',
    }).finally(() => shell.close());
    findings = report.findings;
    nodeFacts = snapshot.nodeFacts;
  } finally {
    await twin.close();
  }
}, 120_000);

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
});

/**
 * The node pre-flight before a cutover: the cluster read fresh, this node probed fully (kernel
 * from `uname -r`, not the Node object), every check run. Refused before any write when the
 * platform manages kube-proxy, when a finding blocks the node, or when a fact could not be read.
 */
import { canaryAllowed } from '../../core/canary-allowed.js';
import { findKubeProxyDaemonSet } from '../../core/kube-proxy-config.js';
import { nodeGate } from '../../core/node-gate.js';
import { otherKubeProxies } from '../../core/node-migration.js';
import { CANARY_NAME } from '../../core/permissions.js';
import type { Evidence } from '../../core/run-state.js';
import { preflightRun } from '../preflight-run.js';
import { refusal, type StepExecutor } from '../step-context.js';
import { nodeTarget } from './node-target.js';
import { choosePeer } from './verify-inputs.js';

export const nodePreflight: StepExecutor = async (ctx) => {
  const state = ctx.state();
  const node = state.node;
  if (node === undefined) return refusal('a cutover needs a node');
  const config = ctx.clusterConfig;
  // The node's probe pod starts while the cluster is listed.
  ctx.shell().warm?.(node);
  const { snapshot, report, platform, poolOf } = await preflightRun({
    cluster: ctx.cluster,
    shell: ctx.shell(),
    clock: ctx.clock,
    ...(config.poolLabel === undefined ? {} : { poolLabel: config.poolLabel }),
    probeOnly: new Set([node]),
    onProgress: (phase, done, total) => ctx.progress({ phase, done, total }),
  });
  if (!snapshot.nodes.some((n) => n.metadata.name === node)) {
    return refusal(`node ${node} does not exist in cluster ${state.cluster}`);
  }
  // A node served by another kube-proxy DaemonSet cannot go: the canary clones the original only.
  const original =
    findKubeProxyDaemonSet(snapshot.kubeSystemDaemonSets)?.metadata.name ?? 'kube-proxy';
  const others = otherKubeProxies(await ctx.cluster.listPodsOnNode(node), {
    original,
    canary: CANARY_NAME,
  });
  if (others.length > 0) {
    return refusal(
      `${node} runs kube-proxy from DaemonSet ${others.map((o) => o.daemonSet).join(', ')}, not ${original}: the canary clones ${original} only, so moving this node would start a second kube-proxy on it. Migrate that DaemonSet's nodes separately, or fold it into ${original} first.`,
    );
  }
  const verdict = canaryAllowed(platform, report.findings, {
    eksSelfManagedKubeProxy: config.selfManagedKubeProxy,
  });
  if (!verdict.allowed) {
    return refusal(`${verdict.reason}${verdict.remedy === undefined ? '' : ` ${verdict.remedy}`}`);
  }
  const facts = snapshot.nodeFacts.find((f) => f.node === node);
  const at = ctx.clock.now().toISOString();
  const evidence: Evidence[] = [
    {
      probe: 'node-facts',
      step: ctx.step.id,
      node,
      argv: [],
      output: JSON.stringify(facts ?? { node, errors: ['not probed'] }),
      ok: facts !== undefined && facts.errors.length === 0,
      verdict: `kernel ${facts?.kernel ?? 'unknown'}, nft ${facts?.nftVersion ?? 'unknown'}, mode ${facts?.proxyMode ?? 'unknown'}`,
      at,
    },
  ];
  const gate = nodeGate(report.findings, node, poolOf(node), facts);
  // The verification calls the NodePort from a peer: its probe pod starts now, not then.
  const peer = await choosePeer(ctx, snapshot.nodes, nodeTarget(ctx));
  if (peer !== undefined) ctx.shell().warm?.(peer.node);
  if (!gate.ok)
    return refusal(`node pre-flight blocks ${node}: ${gate.reasons.join('; ')}`, evidence);
  const conntrack = facts?.conntrack;
  const pct =
    conntrack?.count !== undefined && conntrack.max !== undefined && conntrack.max > 0
      ? ` · conntrack ${Math.round((conntrack.count / conntrack.max) * 100)}%`
      : '';
  return {
    ok: true,
    note: `kernel ${facts?.kernel ?? '?'} · nft ${facts?.nftVersion ?? '?'}${pct} · ${gate.warnings.length} warnings, no blockers`,
    evidence,
    facts: {
      ...(facts?.kernel === undefined ? {} : { nodeKernel: facts.kernel }),
      pool: poolOf(node),
      nodeWarnings: gate.warnings.map((w) => `${w.check}: ${w.title}`),
      platformWarnings: verdict.warnings,
    },
  };
};

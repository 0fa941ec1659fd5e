// Risk: planning from the configured mode while nodes actually run another (a canary already moved,
// or kube-proxy not restarted since a config change). reference/kube-proxy-facts.md §2, §7 (/proxyMode).
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { finding, type Finding } from '../core/findings.js';
import { countNodes, perPool, type PoolGroup } from './group.js';
import { clippedList } from './support/text.js';
import type { Check, CheckContext } from './types.js';

const ID = 'current-mode';

const NOT_PROBED = 'not probed';

/** Where the configured mode comes from, in words: `mode: "ipvs" in ConfigMap kube-system/…`. */
export function describeConfiguredMode(ctx: CheckContext): string {
  const mode = ctx.kubeProxy.mode;
  if (mode === undefined) return 'unknown';
  const source = ctx.kubeProxy.source;
  const where =
    source?.kind === 'configmap'
      ? `ConfigMap ${KUBE_SYSTEM}/${source.configMap}, key ${source.key}`
      : `DaemonSet ${KUBE_SYSTEM}/${ctx.kubeProxy.daemonSet ?? 'kube-proxy'}`;
  switch (mode.source) {
    case 'config-file':
      return `${mode.effective} (mode: "${mode.configured ?? ''}" in ${where})`;
    case 'flag':
      return `${mode.effective} (--proxy-mode=${mode.configured ?? ''} on ${where})`;
    case 'default':
      return `${mode.effective} (kube-proxy's default: ${
        mode.configured === undefined ? 'no mode' : 'mode: ""'
      } in ${where})`;
  }
}

/** The mode each node reports on /proxyMode, `not probed` when the probe did not read it. */
function actualModes(ctx: CheckContext): Map<string, string> {
  const modes = new Map<string, string>();
  for (const node of ctx.snapshot.nodes) {
    const raw = ctx.factsOf(node.metadata.name)?.proxyMode?.trim();
    modes.set(node.metadata.name, raw === undefined || raw === '' ? NOT_PROBED : raw);
  }
  return modes;
}

function counts(modes: Map<string, string>): string {
  const byMode = new Map<string, number>();
  for (const mode of modes.values()) byMode.set(mode, (byMode.get(mode) ?? 0) + 1);
  return [...byMode.entries()]
    .sort(([a], [b]) => (a === NOT_PROBED ? 1 : b === NOT_PROBED ? -1 : a.localeCompare(b)))
    .map(([mode, n]) => `${mode} ${n}`)
    .join(', ');
}

function driftFinding(group: PoolGroup, modes: Map<string, string>, configured: string): Finding {
  const onNftables = group.nodes.filter((n) => modes.get(n) === 'nftables');
  const stale = group.nodes.filter((n) => modes.get(n) !== 'nftables');
  const parts: string[] = [];
  if (onNftables.length > 0) {
    parts.push(
      `${countNodes({ ...group, nodes: onNftables })} already on nftables (no cutover needed)`,
    );
  }
  if (stale.length > 0) {
    const seen = stale.map((n) => `${n}: ${modes.get(n) ?? NOT_PROBED}`).join(', ');
    parts.push(
      `${stale.length} node(s) run another mode than the configured ${configured} (${seen})`,
    );
  }
  const detail =
    `kube-proxy is configured for ${configured}, but these nodes report another mode on /proxyMode. ` +
    (onNftables.length > 0
      ? 'Nodes on nftables were moved already (the canary DaemonSet, or by hand) and need no cutover. '
      : '') +
    (stale.length > 0
      ? `A node that runs an unexpected mode has a kube-proxy that was not restarted since its configuration changed, or one not managed by the kube-proxy DaemonSet; restarting it (or a rollback) puts it on ${configured}, not back where it is now.`
      : '');
  const base = {
    check: ID,
    scope: { kind: 'pool', name: group.pool } as const,
    subjects: group.nodes,
    title: `pool ${group.pool}: ${parts.join('; ')}`,
    detail: detail.trim(),
  };
  if (stale.length === 0) return finding({ ...base, severity: 'info' });
  return finding({
    ...base,
    severity: 'warn',
    remedy: `Find out why these nodes differ before cutting them over: read the mode kube-proxy logged at start, and restart kube-proxy on them if the configuration simply changed since.`,
    commands: [
      `kubectl -n ${KUBE_SYSTEM} logs <kube-proxy-pod-on-the-node> | grep -i 'proxier\\|nftables'`,
      'curl -s http://127.0.0.1:10249/proxyMode   # on the node',
    ],
  });
}

export const currentMode: Check = {
  id: ID,
  title: 'Configured and actual kube-proxy mode',
  run(ctx) {
    const modes = actualModes(ctx);
    const configured = ctx.kubeProxy.mode?.effective;
    const onNftables = [...modes.entries()]
      .filter(([, mode]) => mode === 'nftables')
      .map(([node]) => node)
      .sort();
    const unprobed = [...modes.values()].filter((m) => m === NOT_PROBED).length;
    const total = modes.size;
    const notes: string[] = [];
    notes.push(
      ctx.kubeProxy.mode === undefined
        ? `The configured mode is unknown: ${ctx.kubeProxy.problem ?? 'kube-proxy was not read'}.`
        : `Configured: ${describeConfiguredMode(ctx)}.`,
    );
    if (total > 0) notes.push(`Nodes by the mode they report on /proxyMode: ${counts(modes)}.`);
    if (unprobed > 0) {
      notes.push(
        `${unprobed} of ${total} node(s) were not probed (or kube-proxy's metrics port did not answer), so what they actually run is unknown; that is not a failure.`,
      );
    }
    if (onNftables.length > 0) {
      notes.push(
        `Already on nftables, no cutover needed: ${clippedList(onNftables, { total: true })}.`,
      );
    }
    const summary = finding({
      check: ID,
      severity: 'info',
      scope: { kind: 'cluster', name: ctx.snapshot.cluster },
      subjects: onNftables,
      title:
        `kube-proxy is configured for ${configured ?? 'an unknown mode'}` +
        (total === 0
          ? '; the cluster has no nodes'
          : unprobed === total
            ? `; actual mode not probed on any of ${total} node(s)`
            : `; nodes report ${counts(modes)}`),
      detail: notes.join(' '),
    });
    if (configured === undefined || configured === 'unknown') return [summary];
    const drifted = [...modes.entries()]
      .filter(([, mode]) => mode !== NOT_PROBED && mode !== configured)
      .map(([node]) => node);
    return [summary, ...perPool(ctx, drifted, (group) => driftFinding(group, modes, configured))];
  },
};

/** `proxy-migrate status` for a terminal: nodes by mode and pool, runs, the lock, invariants. */
import type { ClusterStatus } from '../core/cluster-status.js';

export function statusText(s: ClusterStatus): string {
  const lines: string[] = [];
  const modes = Object.entries(s.byMode)
    .map(([mode, n]) => `${n} ${mode}`)
    .join(', ');
  lines.push(
    `${s.cluster}: ${s.nodes.length} nodes (${modes})${s.inProgress ? ', migration in progress' : ''}`,
  );
  const width = Math.max(4, ...s.nodes.map((n) => n.node.length));
  const pw = Math.max(4, ...s.nodes.map((n) => n.pool.length));
  lines.push(
    `  ${'NODE'.padEnd(width)}  ${'POOL'.padEnd(pw)}  MODE      KUBE-PROXY  LABEL       LAST RESULT`,
  );
  for (const n of s.nodes) {
    const owner = n.owners.length === 0 ? 'none' : n.owners.join('+');
    lines.push(
      `  ${n.node.padEnd(width)}  ${n.pool.padEnd(pw)}  ${n.mode.padEnd(8)}  ${owner.padEnd(10)}  ${(n.label ?? '-').padEnd(10)}  ${n.lastResult ?? '-'}`,
    );
  }
  lines.push(
    s.activeRuns.length === 0
      ? 'runs in flight: none'
      : `runs in flight: ${s.activeRuns.map((r) => `${r.id} (${r.kind} ${r.node ?? ''}, ${r.phase})`).join(', ')}`,
  );
  lines.push(
    s.lock === undefined
      ? 'cluster lock: free'
      : `cluster lock: held by ${s.lock.holder} until ${s.lock.expiresAt}`,
  );
  if (s.violations.length === 0) {
    lines.push('invariants: all hold');
  } else {
    lines.push(`invariants: ${s.violations.length} broken`);
    for (const v of s.violations)
      lines.push(`  ✗ ${v.invariant} · ${v.subject}: ${v.message}`, `    → ${v.repair}`);
  }
  return `${lines.join('\n')}\n`;
}

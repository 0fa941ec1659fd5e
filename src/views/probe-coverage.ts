/**
 * What a report says about nodes the fleet pre-flight did not probe (`--probe sample` or `none`):
 * their host facts are unknown, which is not a pass, and each is probed in full before its own
 * cutover. Failed probes are reported apart (they block their nodes).
 */
import type { PreflightReport } from '../core/report.js';

export function coverageNote(report: PreflightReport): string | undefined {
  const { mode, nodes, probed } = report.probing;
  if (probed >= nodes) return undefined;
  const outliers = report.probing.pools.reduce((sum, p) => sum + p.outliers.length, 0);
  const how =
    mode === 'none'
      ? 'no node was probed (--probe none)'
      : mode === 'sample'
        ? `${probed} of ${nodes} nodes probed (--probe sample: ${probed - outliers} sampled per pool, ${outliers} unlike their pool)`
        : `${probed} of ${nodes} nodes probed`;
  return `Not fully probed: ${how}. The other nodes' host facts are unknown, not passed; each node is probed in full before its own cutover.`;
}

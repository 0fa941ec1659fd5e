/**
 * Pre-flight's one reading step: the cluster's paged lists, the node probes and every check,
 * kept on the run as the report (and the overview the views need). Probing progress goes to the
 * observers (the card, the terminal), not into the saved state.
 */
import { probeModes, type ProbeMode } from '../../core/probe-selection.js';
import { preflightRun } from '../preflight-run.js';
import type { StepExecutor } from '../step-context.js';

export const gatherPreflight: StepExecutor = async (ctx) => {
  const config = ctx.clusterConfig;
  const suppressed = ctx.state().facts['suppressed'];
  const facts = ctx.state().facts;
  // `probe: false` (older runs, --no-probe) is `--probe none`; no mode: chosen by fleet size.
  const asked = probeModes.find((m) => m === facts['probeMode']);
  const mode: ProbeMode | undefined = facts['probe'] === false ? 'none' : asked;
  const probe = mode !== 'none';
  const concurrency = facts['probeConcurrency'];
  const { report, overview } = await preflightRun({
    cluster: ctx.cluster,
    ...(probe ? { shell: ctx.shell() } : {}),
    ...(mode === undefined ? {} : { probeMode: mode }),
    clock: ctx.clock,
    ...(config.poolLabel === undefined ? {} : { poolLabel: config.poolLabel }),
    ...(Array.isArray(suppressed) ? { suppressed: new Set(suppressed as string[]) } : {}),
    probeConcurrency: typeof concurrency === 'number' ? concurrency : config.probe.concurrency,
    onProgress: (phase, done, total) => ctx.progress({ phase, done, total }),
  });
  return {
    ok: true,
    note: `${report.summary.block} blockers, ${report.summary.warn} warnings`,
    facts: { report, overview },
  };
};

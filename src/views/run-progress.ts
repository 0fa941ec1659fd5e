/**
 * A mutating run's progress and result in words, shared by the Slack card and the terminal:
 * the headline for its phase or outcome, one mark per step, one line per piece of evidence.
 */
import { actorName, type Evidence, type RunState, type StepRecord } from '../core/run-state.js';

const outcomeHeadline: Record<NonNullable<RunState['outcome']>, (s: RunState) => string> = {
  verified: (s) =>
    s.options.dryRun
      ? `dry run of ${s.kind} on ${s.node ?? '?'}: nothing was written`
      : s.kind === 'repair'
        ? 'the original DaemonSet and the canary objects are as the migration needs them again, verified by a fresh plan'
        : s.kind === 'rollback'
          ? `${s.node ?? '?'} is back on the original kube-proxy (IPVS), verified`
          : `${s.node ?? '?'} now runs nftables, verified`,
  refused: (s) => `${s.kind} of ${s.node ?? 'the original DaemonSet'} refused before any write`,
  'rolled-back': (s) => `${s.node ?? '?'} was rolled back to IPVS and verified`,
  'needs-attention': (s) => `${s.node ?? '?'} needs a person`,
  failed: (s) => `${s.kind} of ${s.node ?? 'the original DaemonSet'} failed before any write`,
};

export function headline(state: RunState): string {
  if (state.outcome !== undefined) return outcomeHeadline[state.outcome](state);
  const approved = state.approvals.find((a) => a.decision === 'approved');
  const by = approved === undefined ? '' : ` · approved by ${actorName(approved.by)}`;
  switch (state.phase) {
    case 'awaiting-approval':
      return `${state.kind} of ${state.node ?? 'the original DaemonSet'} waits for approval`;
    case 'rolling-back':
      return `rolling ${state.node ?? '?'} back${by}`;
    default:
      return `${state.kind} of ${state.node ?? 'the original DaemonSet'} in progress${by}`;
  }
}

export function seconds(a: string | undefined, b: string | undefined): string {
  if (a === undefined || b === undefined) return '';
  const s = Math.max(0, Math.round((Date.parse(b) - Date.parse(a)) / 1000));
  return `${s} s`;
}

const mark: Record<StepRecord['status'], string> = {
  pending: '·',
  running: '…',
  done: '✓',
  failed: '✗',
  skipped: '–',
};

/** The steps that have happened, in order, with their marks and times. */
export function stepLines(state: RunState, titles: ReadonlyMap<string, string>): string[] {
  return state.steps
    .filter((s) => s.status !== 'pending' || (s.track === state.track && s.attempts > 0))
    .filter((s) => s.id !== 'card')
    .map((s) => {
      const took = s.status === 'done' ? seconds(s.startedAt, s.endedAt) : '';
      const title = titles.get(`${s.track}:${s.id}`) ?? s.id;
      const note = s.status === 'failed' && s.note !== undefined ? `: ${s.note}` : '';
      return `${mark[s.status]} ${title}${took === '' || took === '0 s' ? '' : ` (${took})`}${note}`;
    });
}

export function evidenceLine(e: Evidence): string {
  return `${e.ok ? '✓' : '✗'} ${e.probe}${e.node === undefined ? '' : ` @${e.node}`}: ${e.verdict}`;
}

/** Evidence of the verifications (not the rollback reference), in the order taken. */
export function verdicts(state: RunState): Evidence[] {
  return state.evidence.filter((e) => e.step === 'verify' || e.step === 'verify-back');
}

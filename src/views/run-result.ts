/**
 * How a node run ended, for a terminal and for scripts: the text summary (headline, each step,
 * each verification's verdict, why, what a person must do) and the public JSON object of
 * `--format json`.
 */
import type { Outcome, RunState } from '../core/run-state.js';
import { runbooks } from '../runbooks/index.js';
import { evidenceLine, headline, seconds, stepLines, verdicts } from './run-progress.js';

/** What to do after each outcome, in one sentence. */
const next: Record<Outcome, (s: RunState) => string> = {
  verified: (s) =>
    s.options.dryRun
      ? `Run it for real without --dry-run, or review the plan with \`proxy-migrate plan ${s.cluster} ${s.node ?? ''}\`.`
      : s.kind === 'rollback'
        ? 'Nothing to do.'
        : `Watch ${s.node ?? 'the node'} for a while; \`proxy-migrate rollback ${s.cluster} ${s.node ?? ''}\` moves it back.`,
  refused: () => 'Nothing was written. Fix the reason above and run it again.',
  'rolled-back': (s) =>
    `The node is back on IPVS, verified. Read the evidence above before trying again (\`proxy-migrate status ${s.cluster}\`).`,
  'needs-attention': (s) =>
    `A person must look at ${s.node ?? 'the node'}: see the evidence and the journal (\`proxy-migrate status ${s.cluster}\`); \`proxy-migrate rollback ${s.cluster} ${s.node ?? ''}\` retries the way back.`,
  failed: () => 'Nothing was written. Check the error above and run it again.',
};

function titles(state: RunState): Map<string, string> {
  const book = runbooks[state.kind];
  return new Map([
    ...book.steps.map((s) => [`forward:${s.id}`, s.title] as const),
    ...book.rollback.map((s) => [`rollback:${s.id}`, s.title] as const),
  ]);
}

export function runResultText(state: RunState): string {
  const lines = [
    `${headline(state)} · ${state.cluster} · run ${state.id} · ${seconds(state.createdAt, state.updatedAt)}`,
    ...(state.plan === undefined
      ? []
      : [`plan ${state.plan.hash}:`, ...state.plan.actions.map((a, i) => `  ${i + 1}. ${a}`)]),
    'steps:',
    ...stepLines(state, titles(state)).map((l) => `  ${l}`),
  ];
  const seen = verdicts(state);
  if (seen.length > 0) lines.push('evidence:', ...seen.map((e) => `  ${evidenceLine(e)}`));
  if (state.reason !== undefined) lines.push(`why: ${state.reason}`);
  if (state.outcome !== undefined) lines.push(next[state.outcome](state));
  return `${lines.join('\n')}\n`;
}

export interface RunResultJson {
  run: string;
  cluster: string;
  node: string | undefined;
  outcome: Outcome | undefined;
  reason: string | undefined;
  plan: { hash: string; actions: string[] } | undefined;
  steps: { id: string; status: string; startedAt?: string; endedAt?: string }[];
  evidence: { probe: string; argv: string[]; exitCode?: number; output: string; ok: boolean }[];
}

export function runResultJson(state: RunState): RunResultJson {
  return {
    run: state.id,
    cluster: state.cluster,
    node: state.node,
    outcome: state.outcome,
    reason: state.reason,
    plan: state.plan,
    steps: state.steps
      .filter((s) => s.status !== 'pending')
      .map((s) => ({
        id: s.track === 'rollback' ? `rollback/${s.id}` : s.id,
        status: s.status,
        ...(s.startedAt === undefined ? {} : { startedAt: s.startedAt }),
        ...(s.endedAt === undefined ? {} : { endedAt: s.endedAt }),
      })),
    evidence: state.evidence.map((e) => ({
      probe: e.probe,
      argv: e.argv,
      ...(e.exitCode === undefined ? {} : { exitCode: e.exitCode }),
      output: e.output,
      ok: e.ok,
    })),
  };
}

/**
 * The crash suite: for every case, a cutover and its rollback driven through Slack while the bot
 * is kill -9'd at the case's points and restarted; then the checks every case must pass. The
 * figures are counted from the twin, the fake Slack and the run store, never assumed.
 */
import { resourceFor } from '@proxy-migrate/twin';
import type { RunState } from '../../src/core/run-state.js';
import {
  assertInvariants,
  kubeProxyPods,
  unapprovedLabelChanges,
  watchKubeProxyGaps,
} from '../../test/helpers/invariants.js';
import { describeKill, type CrashCase } from './cases.js';
import { cutoverPhase, rollbackPhase, type KillRecord, type PhaseResult } from './phase.js';
import { startWorld, type World } from './world.js';

/** The nodes cases take turns on (cp-1 is the control plane, legacy-1 is refused by pre-flight). */
const NODES = ['blue-1', 'green-1', 'blue-2', 'green-2'] as const;
const ENDINGS = new Set(['verified', 'rolled-back', 'needs-attention']);
const CLEANUP_MS = 15_000;
/** How long a run's card edit and result posts may take after it is saved as ended. */
const ANNOUNCE_MS = 60_000;

export interface SuiteOptions {
  cases: readonly CrashCase[];
  twinSpeed?: number;
  /** Called with a line per case as it ends. */
  onCase?: (line: string) => void;
}

export interface SuiteReport {
  cases: number;
  runs: number;
  kills: number;
  missedKills: number;
  outcomes: Record<string, number>;
  violations: string[];
  duplicatePosts: string[];
  /** Runs that ended without a result in their thread (a person would not learn how). */
  unannounced: string[];
  leftovers: string[];
  restartMs: number[];
  resumeMs: number[];
  longestGapMs: number;
  swapDeadlineMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the run ended as a run must: verified, rolled back or needs-attention with a reason. */
function endingViolation(phase: string, result: PhaseResult): string | undefined {
  const run = result.run;
  if (run === undefined) return `${phase}: no run was recorded`;
  if (result.stuck) {
    const steps = run.steps.map((s) => `${s.id}:${s.status}`).join(' ');
    return `${phase} ${run.id}: stuck in ${run.phase} (${steps})`;
  }
  if (!ENDINGS.has(run.outcome ?? ''))
    return `${phase} ${run.id}: ended ${run.outcome ?? '?'} (${run.reason ?? 'no reason'})`;
  if (run.outcome !== 'verified' && (run.reason ?? '') === '')
    return `${phase} ${run.id}: ${run.outcome} without a reason`;
  return undefined;
}

/** The run's result is in its thread, so the person learns how it ended. */
function announced(world: World, run: RunState): boolean {
  const ts = run.facts['resultTs'];
  const channel = run.options.channel;
  return (
    typeof ts === 'string' &&
    channel !== undefined &&
    world.fake.findMessage(channel, ts) !== undefined &&
    run.facts['announced'] === true
  );
}

/** The runs read again once each ended one is announced, or after ANNOUNCE_MS. */
async function announcedRuns(world: World, runs: readonly RunState[]): Promise<RunState[]> {
  const deadline = Date.now() + ANNOUNCE_MS;
  for (;;) {
    const now = (await Promise.all(runs.map((r) => world.run(r.id)))).filter(
      (r): r is RunState => r !== undefined,
    );
    const pending = now.filter((r) => r.phase === 'done' && !announced(world, r));
    if (pending.length === 0 || Date.now() > deadline) return now;
    await sleep(200);
  }
}

/** Probe pods and the cluster lock left once the case's runs ended; waits for the cleanup. */
async function leftovers(world: World): Promise<string[]> {
  const deadline = Date.now() + CLEANUP_MS;
  for (;;) {
    const pods = world.twin.store
      .list(resourceFor('pods'), { namespace: 'proxy-migrate-probes' })
      .items.filter(
        (p) =>
          (p.metadata.name ?? '').startsWith('proxy-migrate-probe-') &&
          p.metadata.deletionTimestamp === undefined,
      )
      .map((p) => `probe pod ${p.metadata.name ?? '?'}`);
    const lease = world.twin.store.get(resourceFor('leases'), 'kube-system', 'proxy-migrate-lock');
    const left = [...pods, ...(lease === undefined ? [] : ['the cluster lock'])];
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(200);
  }
}

/**
 * Posts made twice: the same text posted into the same thread, a second status card for one
 * run, or one file uploaded twice. Counted from the calls Slack answered ok, as first posted.
 */
export function duplicatePosts(world: World): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const call of world.fake.callsTo('chat.postMessage')) {
    if (call.response['ok'] !== true) continue;
    const thread = typeof call.args['thread_ts'] === 'string' ? call.args['thread_ts'] : undefined;
    const text = typeof call.args['text'] === 'string' ? call.args['text'] : '';
    const runId = /\b(?:co|rb|pf|rp)-\d{12}-[0-9a-f]+\b/.exec(
      `${text}${JSON.stringify(call.args['blocks'] ?? '')}`,
    )?.[0];
    const key =
      thread === undefined
        ? `status card of ${runId ?? text}`
        : `reply in ${thread}: ${text.slice(0, 80)}`;
    if (seen.has(key)) duplicates.push(key);
    seen.add(key);
  }
  const files = new Set<string>();
  for (const file of world.fake.files) {
    if (files.has(file.filename)) duplicates.push(`file ${file.filename}`);
    files.add(file.filename);
  }
  return duplicates;
}

export async function runCrashSuite(options: SuiteOptions): Promise<SuiteReport> {
  const world = await startWorld({ twinSpeed: options.twinSpeed ?? 10 });
  const report: SuiteReport = {
    cases: 0,
    runs: 0,
    kills: 0,
    missedKills: 0,
    outcomes: {},
    violations: [],
    duplicatePosts: [],
    unannounced: [],
    leftovers: [],
    restartMs: [],
    resumeMs: [],
    longestGapMs: 0,
    swapDeadlineMs: world.swapDeadlineMs,
  };
  const count = (records: KillRecord[]) => {
    for (const r of records) {
      if (r.missed === true) report.missedKills += 1;
      else report.kills += 1;
      if (r.resumedAfterMs !== undefined) report.resumeMs.push(r.resumedAfterMs);
      if (r.restartMs !== undefined) report.restartMs.push(r.restartMs);
    }
  };
  try {
    await world.bot.start();
    for (const [i, crash] of options.cases.entries()) {
      const node = NODES[i % NODES.length] ?? 'blue-1';
      const before = kubeProxyPods(world.twin);
      world.twin.stats.reset();
      const gaps = watchKubeProxyGaps(world.twin);
      const runs: RunState[] = [];
      const ended: string[] = [];
      const check = (phase: string, result: PhaseResult) => {
        count(result.kills);
        const bad = endingViolation(phase, result);
        if (bad !== undefined) report.violations.push(`${crash.name}: ${bad}`);
        const run = result.run;
        if (run === undefined) return;
        runs.push(run);
        report.runs += 1;
        const outcome = result.stuck ? 'stuck' : (run.outcome ?? '?');
        report.outcomes[outcome] = (report.outcomes[outcome] ?? 0) + 1;
        ended.push(`${phase} ${outcome}${run.reason === undefined ? '' : ` (${run.reason})`}`);
      };
      try {
        const cutover = await cutoverPhase(world, node, crash.cutover);
        check('cutover', cutover);
        if (cutover.run?.outcome === 'verified') {
          const back = await rollbackPhase(world, cutover.run, crash.rollback);
          check('rollback', back);
        }
      } catch (error) {
        report.violations.push(`${crash.name}: ${(error as Error).message}`);
      }
      // The result is posted after the run is saved as ended: give it the time it may take.
      const final = await announcedRuns(world, runs);
      for (const run of final.filter((r) => r.phase === 'done' && !announced(world, r)))
        report.unannounced.push(`${crash.name}: ${run.id}`);
      // Then what the runs made must be gone (a run ended by a killed process is released by
      // the next one as it announces it).
      const left = await leftovers(world);
      report.leftovers.push(...left.map((l) => `${crash.name}: ${l}`));
      for (const [gapNode, ms] of gaps.stop()) {
        report.longestGapMs = Math.max(report.longestGapMs, ms);
        if (ms > world.swapDeadlineMs)
          report.violations.push(`${crash.name}: ${gapNode} had no Ready kube-proxy for ${ms} ms`);
      }
      try {
        assertInvariants(world.twin, { before, touched: [node], runs: final });
      } catch (error) {
        report.violations.push(`${crash.name}: ${(error as Error).message.split('\n')[0] ?? ''}`);
      }
      report.violations.push(...unapprovedLabelChanges(final).map((v) => `${crash.name}: ${v}`));
      report.cases += 1;
      const kills = [
        ...crash.cutover.map((k) => `cutover ${describeKill(k)}`),
        ...crash.rollback.map((k) => `rollback ${describeKill(k)}`),
      ];
      options.onCase?.(
        `${crash.name} on ${node}: kill ${kills.join(', ') || 'none'} → ${ended.join('; ')}`,
      );
    }
    report.duplicatePosts = duplicatePosts(world);
  } finally {
    await world.close();
  }
  return report;
}

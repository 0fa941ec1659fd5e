/**
 * The api-faults suite's runs: on the twin, through the terminal program in this process (the
 * real @kubernetes/client-node against the twin's API server), a clean pre-flight, cutover and
 * rollback, then the same under each fault profile: 20% 5xx, 429 storms, a 2 s latency tail,
 * 409 storms, reset connections, dropped watches, and all at once. Each scenario's verdicts must
 * equal the clean run's (the same findings; cutover verified; rollback verified) and the
 * invariants must hold on the twin afterwards. Shared by `npm run suite:api-faults` and its
 * reduced form in CI.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTwin, type ApiFault, type Twin } from '@proxy-migrate/twin';
import { clusterGate, type GateStats } from '../../src/adapters/kubernetes/rate-limit.js';
import { DEFAULT_MIGRATION_LABEL } from '../../src/config.js';
import type { RunState } from '../../src/core/run-state.js';
import { cliIn, type CliResult } from '../../test/helpers/cli.js';
import { kubeProxyPods } from '../../test/helpers/invariants.js';
import { invariantViolations, watchInvariants } from '../../test/helpers/invariant-watch.js';

export interface FaultProfile {
  name: string;
  faults: ApiFault[];
}

/** The profiles the issue names, then the 409 storm and resets the twin adds, then all at once. */
export const PROFILES: readonly FaultProfile[] = [
  {
    name: '5xx-20%',
    faults: [
      { kind: 'error', status: 500, rate: 0.1 },
      { kind: 'error', status: 503, rate: 0.1 },
    ],
  },
  { name: '429-storm', faults: [{ kind: 'throttle', rate: 0.3, retryAfterSeconds: 1 }] },
  { name: 'latency-2s', faults: [{ kind: 'latency', ms: 2_000, rate: 0.1 }] },
  { name: 'watch-drop', faults: [{ kind: 'watch-drop', everySeconds: 1 }] },
  { name: '409-storm', faults: [{ kind: 'conflict', rate: 0.5 }] },
  { name: 'resets-5%', faults: [{ kind: 'reset', rate: 0.05 }] },
  {
    name: 'all-at-once',
    faults: [
      { kind: 'latency', ms: 2_000, rate: 0.05 },
      { kind: 'error', status: 503, rate: 0.1 },
      { kind: 'throttle', rate: 0.2, retryAfterSeconds: 1 },
      { kind: 'conflict', rate: 0.3 },
      { kind: 'reset', rate: 0.03 },
      { kind: 'watch-drop', everySeconds: 1 },
    ],
  },
];

export type Injected = Twin['faults']['injected'];

export interface ScenarioResult {
  profile: string;
  wallMs: number;
  /** API requests the twin served (every attempt). */
  requests: number;
  injected: Injected;
  /** Requests repeated by the client, by why (the cluster's gate counts them). */
  clientRetries: GateStats['retries'];
  /** Requests the client-side rate limit held back, and for how long in all. */
  rateLimited: { delayed: number; delayedMs: number };
  /** Step attempts beyond the first, over the scenario's runs. */
  stepRetries: number;
  preflight: 'same' | 'differs';
  cutover: string;
  rollback: string;
  /** Violations of the invariants, and verdicts that differ from the clean run. */
  violations: string[];
}

export interface SuiteOptions {
  scenario?: string;
  speed?: number;
  nodes?: readonly string[];
  profiles?: readonly FaultProfile[];
  /**
   * The clean baseline: the whole scenario, or only its pre-flight (the reduced form's shortcut:
   * a clean cutover and rollback end verified, which every faulted one must too).
   */
  baseline?: 'full' | 'preflight';
  /** Called with each scenario's result as it ends. */
  onResult?: (result: ScenarioResult) => void;
}

export interface SuiteResult {
  clean: ScenarioResult;
  results: ScenarioResult[];
}

interface Findings {
  findings: { check: string; severity: string; node?: string }[];
}

function verdicts(out: CliResult): string {
  try {
    return (JSON.parse(out.stdout) as Findings).findings
      .map((f) => `${f.check}:${f.severity}:${f.node ?? ''}`)
      .sort()
      .join('\n');
  } catch {
    return `exit ${out.code}: ${out.stderr.trim().split('\n').at(-1) ?? ''}`;
  }
}

function outcomeOf(out: CliResult): string {
  try {
    return (JSON.parse(out.stdout) as { outcome?: string }).outcome ?? `exit ${out.code}`;
  } catch {
    return `exit ${out.code}: ${out.stderr.trim().split('\n').at(-1) ?? ''}`;
  }
}

const SWAP_DEADLINE_SECONDS = 120;

export async function runApiFaultsSuite(options: SuiteOptions = {}): Promise<SuiteResult> {
  const twin = await startTwin({
    scenario: options.scenario ?? 'kubeadm-ipvs',
    // Real time: a faulted request waits real seconds, and at a faster twin clock the node's
    // clock would run ahead of the bot's between two reads, which the sync-freshness check sees.
    speed: options.speed ?? 1,
  });
  const dir = await mkdtemp(join(tmpdir(), 'pm-suite-api-faults-'));
  try {
    await twin.writeKubeconfig(join(dir, 'kubeconfig'));
    await writeFile(
      join(dir, 'clusters.yaml'),
      `clusters:\n  - name: ${twin.name}\n    kubeconfig: ./kubeconfig\n    context: ${twin.name}\n    swapDeadlineSeconds: ${SWAP_DEADLINE_SECONDS}\n`,
    );
    const cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
    const gate = clusterGate(twin.name);
    const nodes = options.nodes ?? ['blue-1', 'green-1'];
    let cleanVerdicts = '';
    let cleanOutcomes = { cutover: '', rollback: '' };

    const scenario = async (
      profile: FaultProfile,
      node: string,
      clean: boolean,
      preflightOnly = false,
    ): Promise<ScenarioResult> => {
      const seen = new Set((await cli.runs()).map((r) => r.id));
      const before = kubeProxyPods(twin);
      const watch = watchInvariants(twin, DEFAULT_MIGRATION_LABEL);
      twin.stats.reset();
      twin.faults.resetCounts();
      gate.resetStats();
      twin.faults.replace(profile.faults, `api-faults-${profile.name}`);
      const started = performance.now();
      const pre = await cli.run('preflight', twin.name, '--format', 'json', '--fail-on', 'none');
      const skipped: CliResult = { code: 0, stdout: '{"outcome":"verified"}', stderr: '' };
      const cut = preflightOnly
        ? skipped
        : await cli.run('cutover', twin.name, node, '--yes', '--format', 'json');
      const back = preflightOnly
        ? skipped
        : await cli.run('rollback', twin.name, node, '--yes', '--format', 'json');
      const wallMs = performance.now() - started;
      const injected = twin.faults.injected;
      twin.faults.clear();
      const stats = twin.stats.snapshot() as { total: number };
      const runs: RunState[] = (await cli.runs()).filter((r) => !seen.has(r.id));
      const gateStats = gate.stats();
      const violations = invariantViolations(twin, {
        before,
        touched: [node],
        runs,
        watch,
        label: DEFAULT_MIGRATION_LABEL,
        deadlineMs: SWAP_DEADLINE_SECONDS * 1000,
      });
      watch.stop();
      const found = verdicts(pre);
      const cutover = outcomeOf(cut);
      const rollback = outcomeOf(back);
      if (clean) {
        cleanVerdicts = found;
        cleanOutcomes = { cutover, rollback };
      }
      if (found !== cleanVerdicts) {
        const was = new Set(cleanVerdicts.split('\n'));
        const now = new Set(found.split('\n'));
        const diff = [
          ...[...now].filter((v) => !was.has(v)).map((v) => `+${v}`),
          ...[...was].filter((v) => !now.has(v)).map((v) => `-${v}`),
        ];
        violations.push(
          `pre-flight verdicts differ from the clean run: ${diff.slice(0, 4).join(' ')}`,
        );
      }
      const why = (kind: string): string => {
        const run = runs.find((r) => r.kind === kind);
        const failed = run?.steps.find((s) => s.error !== undefined);
        return `${run?.reason ?? ''}${failed === undefined ? '' : ` [${failed.id}: ${failed.error?.message ?? ''}]`}`;
      };
      if (cutover !== 'verified')
        violations.push(`cutover of ${node} ended ${cutover}: ${why('cutover')}`);
      if (rollback !== 'verified')
        violations.push(`rollback of ${node} ended ${rollback}: ${why('rollback')}`);
      if (cutover !== cleanOutcomes.cutover || rollback !== cleanOutcomes.rollback)
        violations.push('cutover or rollback ended unlike the clean run');
      // A terminal pre-flight keeps no run; the cutover and the rollback do.
      const kinds = runs.map((r) => r.kind).sort();
      if (!preflightOnly && kinds.join() !== 'cutover,rollback')
        violations.push(
          `runs recorded: ${kinds.join(', ') || 'none'}, not a cutover and a rollback`,
        );
      return {
        profile: profile.name,
        wallMs,
        requests: stats.total,
        injected,
        clientRetries: gateStats.retries,
        rateLimited: { delayed: gateStats.delayed, delayedMs: gateStats.delayedMs },
        stepRetries: runs.reduce(
          (n, r) => n + r.steps.reduce((m, s) => m + Math.max(0, s.attempts - 1), 0),
          0,
        ),
        preflight: found === cleanVerdicts ? 'same' : 'differs',
        cutover,
        rollback,
        violations,
      };
    };

    const clean = await scenario(
      { name: 'clean', faults: [] },
      nodes[0] ?? 'blue-1',
      true,
      options.baseline === 'preflight',
    );
    options.onResult?.(clean);
    const results: ScenarioResult[] = [];
    for (const [i, profile] of (options.profiles ?? PROFILES).entries()) {
      const result = await scenario(profile, nodes[i % nodes.length] ?? 'blue-1', false);
      options.onResult?.(result);
      results.push(result);
    }
    return { clean, results };
  } finally {
    await twin.close();
    await rm(dir, { recursive: true, force: true });
  }
}

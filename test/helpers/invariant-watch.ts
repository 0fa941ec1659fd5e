/**
 * The migration's safety invariants as data, for suites that run outside vitest and count
 * violations instead of failing on the first (invariants.ts asserts the same with expect):
 * a watch on the twin's store while runs go on (every change of the migration label, and how
 * long each node went without a Ready kube-proxy), then the checks after a scenario: exactly one
 * kube-proxy pod per node, no node without a Ready kube-proxy longer than the deadline, every
 * label change matched by an approved journal record, no untouched node's kube-proxy restarted,
 * no write outside a journal, every run ended.
 */
import { resourceFor, type Twin } from '@proxy-migrate/twin';
import type { RunState } from '../../src/core/run-state.js';
import { housekeeping, kubeProxyPods, targetOf, type KubeProxyPod } from './invariants.js';

export interface LabelChange {
  node: string;
  from: string | null;
  to: string | null;
  at: number;
}

export interface InvariantWatch {
  labelChanges: LabelChange[];
  /** The longest time (real ms) each node went without a Ready kube-proxy pod. */
  longestGapMs(): Map<string, number>;
  stop(): void;
}

/** Watches the twin's store from now on: label changes, and Ready kube-proxy gaps per node. */
export function watchInvariants(twin: Twin, label: string): InvariantWatch {
  const labelChanges: LabelChange[] = [];
  const served = new Set(kubeProxyPods(twin).map((p) => p.node));
  const since = new Map<string, number>();
  const longest = new Map<string, number>();
  const readyNodes = (): Set<string> =>
    new Set(
      kubeProxyPods(twin)
        .filter((p) => p.ready)
        .map((p) => p.node),
    );
  const update = (now: number): void => {
    const ready = readyNodes();
    for (const node of served) {
      const start = since.get(node);
      if (ready.has(node)) {
        if (start !== undefined) {
          longest.set(node, Math.max(longest.get(node) ?? 0, now - start));
          since.delete(node);
        }
      } else if (start === undefined) {
        since.set(node, now);
      }
    }
  };
  update(Date.now());
  const unsubscribe = twin.store.subscribe((event) => {
    const now = Date.now();
    if (event.resource.plural === 'nodes' && event.type === 'MODIFIED') {
      const before = event.oldObject?.metadata.labels?.[label] ?? null;
      const after = event.object.metadata.labels?.[label] ?? null;
      if (before !== after) {
        labelChanges.push({
          node: event.object.metadata.name ?? '',
          from: before,
          to: after,
          at: now,
        });
      }
    }
    if (event.resource.plural === 'pods' && event.object.metadata.namespace === 'kube-system') {
      update(now);
    }
  });
  return {
    labelChanges,
    longestGapMs: () => {
      const now = Date.now();
      const out = new Map(longest);
      for (const [node, start] of since) out.set(node, Math.max(out.get(node) ?? 0, now - start));
      return out;
    },
    stop: unsubscribe,
  };
}

export interface InvariantCheck {
  /** kube-proxy pods when the scenario began. */
  before: readonly KubeProxyPod[];
  /** Nodes the scenario's runs were allowed to change. */
  touched: readonly string[];
  runs: readonly RunState[];
  watch: InvariantWatch;
  label: string;
  /** The swap deadline: no node may go longer without a Ready kube-proxy. */
  deadlineMs: number;
}

function approved(run: RunState, entry: RunState['journal'][number]): boolean {
  return (
    entry.approvedBy !== undefined ||
    run.options.preApproved !== undefined ||
    run.approvals.some((a) => a.decision === 'approved')
  );
}

/** Every invariant the twin breaks now, one line each; empty when all hold. */
export function invariantViolations(twin: Twin, check: InvariantCheck): string[] {
  const violations: string[] = [];
  const after = kubeProxyPods(twin).filter((p) => !p.terminating);
  const served = new Set(check.before.filter((p) => !p.terminating).map((p) => p.node));
  const nodes = twin.store.list(resourceFor('nodes')).items.map((n) => n.metadata.name ?? '');
  for (const node of nodes) {
    const here = after.filter((p) => p.node === node).length;
    const want = served.has(node) ? 1 : 0;
    if (here !== want) violations.push(`${node}: ${here} kube-proxy pods, not ${want}`);
  }
  for (const [node, ms] of check.watch.longestGapMs()) {
    if (ms > check.deadlineMs)
      violations.push(
        `${node}: no Ready kube-proxy for ${ms} ms (deadline ${check.deadlineMs} ms)`,
      );
  }
  for (const pod of check.before.filter((p) => !check.touched.includes(p.node) && !p.terminating)) {
    const now = after.find((p) => p.node === pod.node);
    if (now?.uid !== pod.uid) violations.push(`untouched ${pod.node}: kube-proxy replaced`);
    else if (pod.ready && now.restarts !== pod.restarts)
      violations.push(`untouched ${pod.node}: kube-proxy restarted`);
  }
  for (const change of check.watch.labelChanges) {
    const matched = check.runs.some((run) =>
      run.journal.some(
        (e) =>
          approved(run, e) &&
          ((e.action.kind === 'label-node' &&
            e.action.node === change.node &&
            e.action.key === check.label &&
            e.action.value === change.to) ||
            (e.action.kind === 'unlabel-node' &&
              e.action.node === change.node &&
              e.action.key === check.label &&
              change.to === null)),
      ),
    );
    if (!matched)
      violations.push(
        `${change.node}: label ${change.from ?? '(none)'} → ${change.to ?? '(none)'} with no approved journal record`,
      );
  }
  const journaled = new Set(check.runs.flatMap((r) => r.journal.map((e) => targetOf(e.action))));
  for (const w of twin.stats.writes()) {
    if (w.dryRun || w.code === undefined || w.code >= 400 || housekeeping(w)) continue;
    const known =
      w.name === undefined
        ? [...journaled].some((t) => t.startsWith(`${w.resource}/`))
        : journaled.has(`${w.resource}/${w.name}`);
    if (!known) violations.push(`write ${w.verb} ${w.resource}/${w.name ?? ''} is in no journal`);
  }
  for (const run of check.runs) {
    if (run.outcome === undefined) violations.push(`run ${run.id} (${run.kind}) did not end`);
  }
  return violations;
}

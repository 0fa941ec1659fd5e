/**
 * The audit trail's facts, derived from a run's saved state: who asked, who approved or
 * rejected (and why), every cluster write with its ClusterAction and approver, every
 * verification result, every refused click, rollbacks, and how the run ended. Pure and
 * deterministic: each fact has a stable key, so recording a run's facts again (another process,
 * a retry, a resumed run) never records one twice.
 */
import { describe } from './action-describe.js';
import type { ClusterAction } from './actions.js';
import type { Actor, RunState } from './run-state.js';
import type { RunKind } from './runbook.js';

export const auditKinds = [
  'requested',
  'approved',
  'rejected',
  'expired',
  'mutation',
  'verification',
  'click-refused',
  'event',
  'ended',
] as const;
export type AuditKind = (typeof auditKinds)[number];

export interface AuditEntry {
  /** Stable per fact: `<run>/<kind>/<n>`. */
  key: string;
  at: string;
  kind: AuditKind;
  runId: string;
  runKind: RunKind;
  cluster: string;
  node?: string;
  /** `slack:U0BOB@T0TEAM` or `terminal:ops`. */
  actor?: string;
  planHash?: string;
  /** One line for people. */
  detail: string;
  action?: ClusterAction;
  ok?: boolean;
}

export function actorId(actor: Actor): string {
  return actor.kind === 'slack'
    ? `slack:${actor.userId}@${actor.teamId}`
    : `terminal:${actor.user}`;
}

export function auditEntries(state: RunState): AuditEntry[] {
  const base = {
    runId: state.id,
    runKind: state.kind,
    cluster: state.cluster,
    ...(state.node === undefined ? {} : { node: state.node }),
  };
  const hash = state.planHash === undefined ? {} : { planHash: state.planHash };
  const out: AuditEntry[] = [
    {
      ...base,
      key: `${state.id}/requested`,
      at: state.createdAt,
      kind: 'requested',
      actor: actorId(state.requester),
      detail: `${state.kind}${state.node === undefined ? '' : ` of ${state.node}`} requested${state.options.dryRun ? ' (dry run)' : ''}`,
    },
  ];
  state.approvals.forEach((a, i) => {
    out.push({
      ...base,
      ...(a.planHash === undefined ? {} : { planHash: a.planHash }),
      key: `${state.id}/${a.decision}/${i}`,
      at: a.at,
      kind: a.decision,
      actor: actorId(a.by),
      detail:
        a.decision === 'approved'
          ? `approved${a.planHash === undefined ? '' : ` plan ${a.planHash}`}`
          : `rejected${a.reason === undefined ? '' : `: ${a.reason}`}`,
    });
  });
  for (const j of state.journal) {
    if (j.status === 'pending') continue;
    out.push({
      ...base,
      ...hash,
      key: `${state.id}/mutation/${j.seq}`,
      at: j.at,
      kind: 'mutation',
      ...(j.approvedBy === undefined ? {} : { actor: actorId(j.approvedBy) }),
      detail: `${j.status}: ${describe(j.action)}${j.undoes === undefined ? '' : ` (undoes #${j.undoes})`}${j.error === undefined ? '' : `: ${j.error}`}`,
      action: j.action,
      ok: j.status !== 'failed',
    });
  }
  state.evidence.forEach((e, i) => {
    if (e.step !== 'verify' && e.step !== 'verify-back') return;
    out.push({
      ...base,
      key: `${state.id}/verification/${i}`,
      at: e.at,
      kind: 'verification',
      detail: `${e.probe}${e.node === undefined ? '' : ` @${e.node}`}: ${e.verdict}`,
      ok: e.ok,
    });
  });
  state.history.forEach((h, i) => {
    const refused = h.event.endsWith('-refused');
    out.push({
      ...base,
      key: `${state.id}/history/${i}`,
      at: h.at,
      kind: refused ? 'click-refused' : 'event',
      detail: `${h.event}${h.note === undefined ? '' : `: ${h.note}`}`,
      ...(refused ? { ok: false } : {}),
    });
  });
  if (state.phase === 'done' && state.outcome !== undefined) {
    const expired = state.reason === 'the approval request expired';
    out.push({
      ...base,
      ...hash,
      key: `${state.id}/ended`,
      at: state.updatedAt,
      kind: expired ? 'expired' : 'ended',
      detail: `${state.outcome}${state.reason === undefined ? '' : `: ${state.reason}`}`,
      ok: state.outcome === 'verified' || state.outcome === 'rolled-back',
    });
  }
  return out;
}

/** `7d`, `12h`, `30m` → milliseconds; undefined for anything else. */
export function parseSince(text: string): number | undefined {
  const m = /^(\d{1,5})([dhm])$/.exec(text.trim());
  if (m === null) return undefined;
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[m[2] as 'd' | 'h' | 'm'];
  return Number(m[1]) * unit;
}

/** One line per entry, for the terminal and Slack. */
export function auditLine(e: AuditEntry): string {
  const who = e.actor === undefined ? '' : ` by ${e.actor}`;
  const mark = e.ok === undefined ? '·' : e.ok ? '✓' : '✗';
  return `${e.at.slice(0, 19)}Z ${mark} ${e.cluster}${e.node === undefined ? '' : `/${e.node}`} ${e.runId} ${e.kind}${who}: ${e.detail}`;
}

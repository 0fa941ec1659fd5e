/**
 * The action and view ids of every button and modal the bot posts. One list, so the HTTP edge
 * can tell a known interaction from a stray one and a renamed button cannot silently stop
 * working. A button's value carries a run id only; everything else is read from the run.
 */
export const ACTION = {
  approve: 'run.approve',
  reject: 'run.reject',
  rollback: 'run.rollback',
  repairDrift: 'drift.repair',
} as const;
export type ActionId = (typeof ACTION)[keyof typeof ACTION];

export const VIEW = {
  rejectReason: 'run.reject-reason',
  rollbackConfirm: 'run.rollback-confirm',
} as const;
export type ViewId = (typeof VIEW)[keyof typeof VIEW];

export const actionIds: readonly string[] = Object.values(ACTION);
export const viewIds: readonly string[] = Object.values(VIEW);

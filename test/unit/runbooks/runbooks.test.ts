// Every step of every runbook has an executor, and every executor is used by a runbook: a typo
// in a runbook fails here, not in the middle of a cutover.
import { describe, expect, it } from 'vitest';
import { executorKey } from '../../../src/engine/run-engine.js';
import { executors } from '../../../src/engine/steps/index.js';
import { runbooks } from '../../../src/runbooks/index.js';

const steps = Object.values(runbooks).flatMap((r) => [...r.steps, ...r.rollback]);

describe('runbooks', () => {
  it.each(steps.filter((s) => s.kind !== 'approval').map((s) => [s.id, s.kind, s.uses] as const))(
    '%s (%s %s) has an executor',
    (_id, kind, uses) => {
      expect(executors.has(executorKey(kind, uses))).toBe(true);
    },
  );

  it('has no executor that no runbook uses', () => {
    const used = new Set(steps.map((s) => executorKey(s.kind, s.uses)));
    expect([...executors.keys()].filter((k) => !used.has(k))).toEqual([]);
  });

  it('keeps step ids unique within each runbook', () => {
    for (const book of Object.values(runbooks)) {
      const ids = [...book.steps, ...book.rollback].map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('writes to the cluster only after the approval and the lock', () => {
    for (const book of Object.values(runbooks).filter((b) => b.mutates)) {
      const index = (kind: string): number => book.steps.findIndex((s) => s.kind === kind);
      const firstWrite = book.steps.findIndex((s) => s.kind === 'apply' || s.kind === 'revert');
      expect(index('approval')).toBeLessThan(index('lock'));
      expect(index('lock')).toBeLessThan(firstWrite);
    }
  });
});

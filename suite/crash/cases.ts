/**
 * The crash suite's cases: where each kill -9 lands. One case is a cutover of a node and its
 * rollback; each phase has its own kills, after a named step is saved (a step boundary) or
 * after a delay from the phase's start (a random point, sometimes twice in a row).
 */
import { runbooks } from '../../src/runbooks/index.js';

export type Kill = { after: string } | { atMs: number };

export interface CrashCase {
  name: string;
  cutover: readonly Kill[];
  rollback: readonly Kill[];
}

/** The main-track step ids of a runbook, in order. */
export function stepIds(kind: 'cutover' | 'rollback'): string[] {
  return runbooks[kind].steps.map((s) => s.id);
}

/** A small seeded generator (mulberry32): the same seed gives the same kills. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * One case per step boundary pair: the i-th step of the cutover and the i-th of the rollback
 * (the rollback has fewer steps, so later cases kill in the cutover only).
 */
export function boundaryCases(): CrashCase[] {
  const cutover = stepIds('cutover');
  const rollback = stepIds('rollback');
  return cutover.map((step, i) => {
    const back = rollback[i];
    return {
      name: `boundary ${step}${back === undefined ? '' : ` / rollback ${back}`}`,
      cutover: [{ after: step }],
      rollback: back === undefined ? [] : [{ after: back }],
    };
  });
}

export interface RandomOptions {
  runs: number;
  seed: number;
  /** How long a phase typically takes: a random kill lands within it (or just after). */
  cutoverWindowMs: number;
  rollbackWindowMs: number;
}

/** `runs` cases with one or two kills at random points of each phase (at least one kill). */
export function randomCases(options: RandomOptions): CrashCase[] {
  const next = random(options.seed);
  const kills = (windowMs: number): Kill[] => {
    const roll = next();
    if (roll < 0.25) return [];
    const first = { atMs: Math.round(next() * windowMs) };
    // Two kills in a row: the second lands soon after the restarted process took the run up.
    if (roll > 0.7) return [first, { atMs: Math.round(next() * 2_000) }];
    return [first];
  };
  return Array.from({ length: options.runs }, (_, i) => {
    const cutover = kills(options.cutoverWindowMs);
    const rollback = kills(options.rollbackWindowMs);
    return {
      name: `random #${i + 1}`,
      cutover: cutover.length + rollback.length === 0 ? [{ atMs: 0 }] : cutover,
      rollback,
    };
  });
}

export function describeKill(kill: Kill): string {
  return 'after' in kill ? `after ${kill.after}` : `at +${kill.atMs} ms`;
}

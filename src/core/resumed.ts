/**
 * Whether a run was taken over after its process died (a `resumed` event in its history): its
 * keyed Slack posts may already exist, posted by the process that died before keeping their ts.
 */
import type { RunState } from './run-state.js';

export function wasResumed(state: Pick<RunState, 'history'>): boolean {
  return state.history.some((h) => h.event === 'resumed');
}

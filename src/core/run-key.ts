/**
 * The key that makes identical requests one run. Two requests are the same when they would run
 * the same runbook on the same cluster (and node), talk in the same channel, with the same
 * options, under the same cluster configuration: who asked does not matter (a second person
 * asking for the same pre-flight is sent to the first one's thread), and a changed clusters file
 * is a different request. Readable at the front, so a key in Redis says what it is for.
 */
import { createHash } from 'node:crypto';
import type { ClusterConfig } from '../config.js';
import type { RunOptions } from './run-state.js';
import type { RunKind } from './runbook.js';

export interface RunKeyInput {
  kind: RunKind;
  cluster: ClusterConfig;
  node?: string;
  options: RunOptions;
  facts?: Record<string, unknown>;
}

/** Keys sorted at every level, so equal requests always serialise the same way. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, canonical(v)]),
  );
}

export function runKey(input: RunKeyInput): string {
  // Pre-approval follows from who asked, which is not part of the request.
  const { preApproved: _, ...options } = input.options;
  const body = JSON.stringify(
    canonical({
      kind: input.kind,
      cluster: input.cluster,
      node: input.node,
      options,
      facts: input.facts,
    }),
  );
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const subject =
    input.node === undefined ? input.cluster.name : `${input.cluster.name}.${input.node}`;
  return `${input.kind}.${subject}.${hash}`;
}

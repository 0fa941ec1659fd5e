/**
 * Whether one node may be cut over, from a pre-flight that probed it: no blocking finding about
 * it (or about the whole cluster), and every fact its probes read. A fact that could not be read
 * is unknown, and unknown blocks: a probe that failed because the API server went away must never
 * turn a real blocker into a pass.
 */
import type { Finding } from './findings.js';
import type { NodeFacts } from './snapshot.js';

export interface NodeGate {
  ok: boolean;
  /** One line per reason the node may not go, for the refusal. */
  reasons: string[];
  /** Warnings about the node that a person should know before approving. */
  warnings: Finding[];
}

function about(f: Finding, node: string, pool: string): boolean {
  if (f.scope.kind === 'cluster') return true;
  if (f.scope.kind === 'node') return f.scope.name === node;
  // A pool finding concerns the node when it names it, or names no nodes at all.
  return f.scope.name === pool && (f.subjects.length === 0 || f.subjects.includes(node));
}

/** The facts every node pre-flight must read; a missing one is unknown. */
const REQUIRED: readonly (keyof NodeFacts)[] = ['kernel', 'nftVersion', 'conntrack', 'proxyMode'];

export function nodeGate(
  findings: readonly Finding[],
  node: string,
  pool: string,
  facts: NodeFacts | undefined,
): NodeGate {
  const mine = findings.filter((f) => about(f, node, pool));
  const reasons = mine
    .filter((f) => f.severity === 'block')
    .map((f) => `${f.check}: ${f.title}${f.remedy === undefined ? '' : ` (${f.remedy})`}`);
  if (facts === undefined) {
    reasons.push(`${node} was not probed: its host facts are unknown, and unknown never passes`);
  } else {
    for (const error of facts.errors) {
      reasons.push(
        `could not read ${error.probe} on ${node} (${error.code}: ${error.message}): unknown never passes`,
      );
    }
    // A host without nft answered (kube-proxy uses its image's nft): not an unknown.
    const missing = REQUIRED.filter(
      (k) => facts[k] === undefined && !(k === 'nftVersion' && facts.hostNftMissing === true),
    );
    if (facts.errors.length === 0 && missing.length > 0) {
      reasons.push(`${node}: ${missing.join(', ')} unknown after probing: unknown never passes`);
    }
  }
  return { ok: reasons.length === 0, reasons, warnings: mine.filter((f) => f.severity === 'warn') };
}

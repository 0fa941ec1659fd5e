/** Reading the node probe's results: why a fact is missing on a node. */
import type { NodeFacts } from '../../core/snapshot.js';

/**
 * Why a probe's fact is missing on a node: the error of the probe whose name mentions one of the
 * keywords, else any probe error (the probe pod itself may have failed).
 */
export function probeProblem(facts: NodeFacts, keywords: readonly string[]): string | undefined {
  const relevant = facts.errors.find((e) =>
    keywords.some((k) => e.probe.toLowerCase().includes(k)),
  );
  const error = relevant ?? facts.errors[0];
  return error === undefined ? undefined : `${error.probe}: ${error.code}: ${error.message}`;
}

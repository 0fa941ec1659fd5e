/**
 * Guards against a report that looks complete but is not: a node whose probe failed (the API
 * server went away, the node is NotReady, the probe pod could not start) has unknown host facts,
 * and unknown never passes (DESIGN "Unknown never passes"): it must not turn a real blocker into
 * a warning or a pass. Such nodes block, by pool, with the reason each could not be read.
 */
import { countNodes, perPool, poolFinding, poolParts } from './group.js';
import { evidenceList } from './support/text.js';
import type { Check } from './types.js';

export const nodeProbes: Check = {
  id: 'node-probes',
  title: 'Every probed node’s host facts were read',
  run(ctx) {
    const failed = ctx.snapshot.nodeFacts.filter((f) => f.errors.length > 0);
    if (failed.length === 0) return [];
    const why = new Map(
      failed.map((f) => [
        f.node,
        `${f.node}: ${f.errors.map((e) => `${e.probe} ${e.code}: ${e.message}`).join('; ')}`,
      ]),
    );
    return perPool(
      ctx,
      failed.map((f) => f.node),
      (group) => {
        const parts = poolParts();
        parts.titles.push(`${countNodes(group)} could not be probed: their host facts are unknown`);
        parts.details.push(
          `This report is incomplete for these nodes: what the probes would have read (the running kernel, host nft, conntrack, the mode kube-proxy runs) is unknown, and unknown is not a pass, so every host-level check is open for them. ${evidenceList(group.nodes, (n) => why.get(n) ?? n)}.`,
        );
        parts.remedies.push(
          'Make the nodes probeable (Ready, the probe image pullable, the API server reachable) and run the pre-flight again; they cannot be cut over until then.',
        );
        return poolFinding(nodeProbes.id, 'block', group, parts, []);
      },
    );
  },
};

/**
 * Guards against a report that looks complete but is not: a node whose probe failed (the API
 * server went away, the node is NotReady, the probe pod could not start) has unknown host facts,
 * and unknown never passes (DESIGN "Unknown never passes"): it must not turn a real blocker into
 * a warning or a pass. Such nodes block, by pool, with the reason each could not be read.
 */
import { finding, type Finding } from '../core/findings.js';
import { countNodes, perPool, poolFinding, poolParts } from './group.js';
import { evidenceList } from './support/text.js';
import type { Check } from './types.js';

export const nodeProbes: Check = {
  id: 'node-probes',
  title: 'Every probed node’s host facts were read',
  run(ctx) {
    const probeFailed = ctx.snapshot.nodeFacts.filter((f) => f.errors.length > 0);
    if (probeFailed.length === 0) return [];
    // A missing probe namespace fails every node the same way: one cluster finding with the fix.
    const noNamespace = probeFailed.filter((f) =>
      f.errors.some((e) => e.code === 'PROBE_NAMESPACE_MISSING'),
    );
    const failed = probeFailed.filter((f) => !noNamespace.includes(f));
    const namespaceFinding: Finding[] = noNamespace.slice(0, 1).map((f) =>
      finding({
        check: nodeProbes.id,
        severity: 'block',
        scope: { kind: 'cluster', name: ctx.snapshot.cluster },
        subjects: noNamespace.map((n) => n.node),
        title: `The probe namespace does not exist: ${noNamespace.length} node${noNamespace.length === 1 ? '' : 's'} could not be probed`,
        detail: `${f.errors.find((e) => e.code === 'PROBE_NAMESPACE_MISSING')?.message ?? ''} Probe pods run in their own namespace (clusters file: probe.namespace), never in kube-system, with pod rights granted only there; until it exists every host-level check is open.`,
        remedy:
          'Apply the deploy base (it creates proxy-migrate-probes with its Role and Pod Security labels), or run `proxy-migrate connect` for this cluster, then run the pre-flight again.',
        commands: ['kubectl apply -f deploy/install.yaml'],
      }),
    );
    if (failed.length === 0) return namespaceFinding;
    const why = new Map(
      failed.map((f) => [
        f.node,
        `${f.node}: ${f.errors.map((e) => `${e.probe} ${e.code}: ${e.message}`).join('; ')}`,
      ]),
    );
    const pools = perPool(
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
    return [...namespaceFinding, ...pools];
  },
};

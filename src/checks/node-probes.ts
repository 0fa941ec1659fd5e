/**
 * Guards against a report that looks complete but is not: a node whose probe failed (the API
 * server went away, the node is NotReady, the probe pod could not start) has unknown host facts,
 * and unknown never passes (DESIGN "Unknown never passes"): it must not turn a real blocker into
 * a warning or a pass. Such nodes block, by pool, with the reason each could not be read.
 */
import { finding, type Finding } from '../core/findings.js';
import { countNodes, perPool, poolFinding, poolParts } from './group.js';
import { evidenceList, plural } from './support/text.js';
import type { Check, CheckContext } from './types.js';

/**
 * Nodes the fleet pre-flight chose not to probe (`--probe sample` or `none`): their host facts are
 * unknown too. Not a blocker (each node is probed in full by its own node pre-flight before it
 * is moved), but never a pass: one warning per pool, so the report says what it did not read.
 * No subjects: a pool's unprobed nodes can be thousands; `probing` in the JSON says who was read.
 */
function notProbed(ctx: CheckContext): Finding[] {
  const probing = ctx.snapshot.probing;
  if (probing === undefined || probing.probed >= probing.nodes) return [];
  const probed = new Set(ctx.snapshot.nodeFacts.map((f) => f.node));
  const remedy =
    'Run the pre-flight with --probe all for a complete report; a cutover probes its node in full before it moves, whatever this report sampled.';
  if (probing.mode === 'none') {
    return [
      finding({
        check: nodeProbes.id,
        severity: 'warn',
        scope: { kind: 'cluster', name: ctx.snapshot.cluster },
        title: `No node was probed (--probe none): the host facts of ${plural(probing.nodes, 'node')} are unknown`,
        detail:
          'Host-level checks fell back to what the Node objects report (the kernel kubelet saw at start, no host nft, conntrack or addresses); unknown is not a pass.',
        remedy,
      }),
    ];
  }
  return ctx.pools.flatMap((pool) => {
    const missing = pool.nodes.filter((n) => !probed.has(n.metadata.name)).length;
    if (missing === 0) return [];
    const chosen = probing.pools.find((p) => p.pool === pool.name);
    return [
      finding({
        check: nodeProbes.id,
        severity: 'warn',
        scope: { kind: 'pool', name: pool.name },
        title: `${missing} of ${pool.nodes.length} nodes not probed (sampled): their host facts are unknown`,
        detail: `The fleet pre-flight probed ${chosen?.sampled.length ?? 0} sample ${chosen?.sampled.length === 1 ? 'node' : 'nodes'} of this pool${chosen?.sampled.length ? ` (${chosen.sampled.join(', ')})` : ''} and every node whose Node object differs from the pool's majority (${chosen?.outliers.length ?? 0}); the others are assumed like their pool, which is not a pass.`,
        remedy,
      }),
    ];
  });
}

export const nodeProbes: Check = {
  id: 'node-probes',
  title: 'Every probed node’s host facts were read',
  run(ctx) {
    const probeFailed = ctx.snapshot.nodeFacts.filter((f) => f.errors.length > 0);
    if (probeFailed.length === 0) return notProbed(ctx);
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
    if (failed.length === 0) return [...namespaceFinding, ...notProbed(ctx)];
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
    return [...namespaceFinding, ...pools, ...notProbed(ctx)];
  },
};

/** `proxy-migrate plan <cluster> [<node>]`: the canary objects, diffs, hash and node order; writes nothing. */
import { clusterFlags, commandLine } from './args.js';
import type { Subcommand } from './types.js';

const usage = 'proxy-migrate plan <cluster> [<node>] [--format text|json]';

const help = `Usage: ${usage}

Prints what proxy-migrate will create or change, computed from the live objects and confirmed
by a server-side dry run (dryRun=All: the API server validates every write, persists nothing):
the kube-proxy-nftables ConfigMap (the current configuration rewritten for nftables), the
kube-proxy-nftables DaemonSet, the original DaemonSet's changes (OnDelete first, then the NotIn
term on every nodeSelectorTerm), the node's label changes when a node is given, unified diffs,
the plan's short hash, and a suggested node order (one canary per pool first, blocked nodes
last and marked). Nothing is written.

  --format text|json   default text
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context

Exit codes: 0 planned, 2 the cluster cannot be planned or the dry run refused a write, 1 error,
64 usage, 78 configuration.

Example:
  proxy-migrate plan cluster-a blue-1`;

const options = {
  format: { type: 'string', default: 'text' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const;

export const planCommand: Subcommand = {
  name: 'plan',
  summary: 'show the canary objects, diffs, hash and node order (writes nothing)',
  help,
  run: async (argv, io) => {
    const parsed = commandLine(argv, options, help, io, {
      required: 1,
      optional: 1,
      missing: 'Which cluster?',
      formats: ['text', 'json'],
    });
    if (!parsed.ok) return parsed.code;
    const { values, args } = parsed.line;
    const [cluster = '', node] = args;
    const { runPlan } = await import('./plan-run.js');
    return runPlan(io, {
      cluster,
      ...(node === undefined ? {} : { node }),
      format: parsed.line.format,
      ...clusterFlags(values),
      usage,
    });
  },
};

/** `proxy-migrate plan <cluster> [<node>]`: the canary objects, diffs, hash and node order; writes nothing. */
import { parseOrExit } from './args.js';
import { EXIT, type CliIo, type Subcommand } from './types.js';

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

function usageError(io: CliIo, message: string): number {
  io.stderr.write(`${message}\n\n${help}\n`);
  return EXIT.usage;
}

export const planCommand: Subcommand = {
  name: 'plan',
  summary: 'show the canary objects, diffs, hash and node order (writes nothing)',
  help,
  run: async (argv, io) => {
    const parsed = parseOrExit(argv, options, help, io);
    if (!parsed.ok) return parsed.code;
    const { values, positionals } = parsed.parsed;
    const [cluster, node, ...extra] = positionals;
    if (cluster === undefined) return usageError(io, 'Which cluster?');
    if (extra.length > 0) return usageError(io, `Unexpected argument: ${extra.join(' ')}`);
    if (values.format !== 'text' && values.format !== 'json')
      return usageError(io, '--format must be text or json.');
    const { runPlan } = await import('./plan-run.js');
    return runPlan(io, {
      cluster,
      ...(node === undefined ? {} : { node }),
      format: values.format,
      ...(values.kubeconfig === undefined ? {} : { kubeconfig: values.kubeconfig }),
      ...(values.context === undefined ? {} : { context: values.context }),
      usage,
    });
  },
};

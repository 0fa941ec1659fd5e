/** `proxy-migrate plan <cluster> [<node>]`: the canary objects, diffs, hash and node order; writes nothing. */
import {
  checkOf,
  clusterFlags,
  clusterOptions,
  commandLine,
  formatOptions,
  withExamples,
} from './args.js';
import type { PlanArgs } from './plan-run.js';
import type { CliIo, Subcommand } from './types.js';

const usage = 'proxy-migrate plan [<cluster>] [<node>] [-o text|json]';

const body = `Usage: ${usage}

Prints what proxy-migrate will create or change, computed from the live objects and confirmed
by a server-side dry run (dryRun=All: the API server validates every write, persists nothing):
the kube-proxy-nftables ConfigMap (the current configuration rewritten for nftables), the
kube-proxy-nftables DaemonSet, the original DaemonSet's changes (OnDelete first, then the NotIn
term on every nodeSelectorTerm), the node's label changes when a node is given, unified diffs,
the plan's short hash, and a suggested node order (one canary per pool first, blocked nodes
last and marked). Nothing is written.

  -o, --format text|json
                       default text
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context; with either and no argument, <cluster> is named after it

Exit codes: 0 planned, 2 the cluster cannot be planned or the dry run refused a write, 1 error,
64 usage, 78 configuration (a bad kubeconfig too).`;

const examples = [
  'proxy-migrate plan cluster-a blue-1',
  'proxy-migrate plan cluster-a -o json',
  'proxy-migrate plan --context prod-eu',
];

const help = withExamples(body, examples);

const options = {
  ...formatOptions,
  ...clusterOptions,
} as const;

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; args: PlanArgs } | { ok: false; code: number } {
  const parsed = commandLine(argv, options, help, io, {
    required: 1,
    optional: 1,
    missing: 'Which cluster?',
    formats: ['text', 'json'],
  });
  if (!parsed.ok) return parsed;
  const { values, args, format } = parsed.line;
  const [cluster, node] = args;
  return {
    ok: true,
    args: {
      cluster,
      ...(node === undefined ? {} : { node }),
      format,
      ...clusterFlags(values),
      usage,
    },
  };
}

export const planCommand: Subcommand = {
  name: 'plan',
  summary: 'show the canary objects, diffs, hash and node order (writes nothing)',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { runPlan } = await import('./plan-run.js');
    return runPlan(io, parsed.args);
  },
};

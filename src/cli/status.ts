/** `proxy-migrate status <cluster>`: which node runs which mode, runs in flight, the lock, invariants. */
import {
  checkOf,
  clusterFlags,
  clusterOptions,
  commandLine,
  formatOptions,
  withExamples,
} from './args.js';
import type { StatusArgs } from './status-run.js';
import type { CliIo, Subcommand } from './types.js';

const usage = 'proxy-migrate status [<cluster>] [-o text|json] [--no-probe]';

const body = `Usage: ${usage}

Shows where a migration stands: every node with the mode its kube-proxy reports (/proxyMode,
read on the node, not the label), its pool, which DaemonSet runs its kube-proxy, its label and
last result; the runs in flight and the cluster lock's holder; and the invariants (one
kube-proxy per node; the original DaemonSet's NotIn term and OnDelete strategy while a migration
is in progress; labels, pods and runs agreeing), each broken one with its repair.

  -o, --format text|json
                       default text
  --no-probe           skip reading /proxyMode on the nodes (no probe pods; modes show unknown)
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context; with either, <cluster> may be left out (named after it)

Exit codes: 0 every invariant holds, 3 an invariant is broken, 1 error, 64 usage, 78 configuration
(a bad kubeconfig too).`;

const examples = [
  'proxy-migrate status cluster-a',
  'proxy-migrate status --context prod-eu --no-probe -o json',
];

const help = withExamples(body, examples);

const options = {
  ...formatOptions,
  'no-probe': { type: 'boolean', default: false },
  ...clusterOptions,
} as const;

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; args: StatusArgs } | { ok: false; code: number } {
  const parsed = commandLine(argv, options, help, io, {
    required: 1,
    missing: 'Which cluster?',
    formats: ['text', 'json'],
  });
  if (!parsed.ok) return parsed;
  const { values, args, format } = parsed.line;
  const [cluster] = args;
  return {
    ok: true,
    args: { cluster, format, probe: !values['no-probe'], ...clusterFlags(values), usage },
  };
}

export const statusCommand: Subcommand = {
  name: 'status',
  summary: 'which node runs which mode, runs in flight, and the migration invariants',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { runStatus } = await import('./status-run.js');
    return runStatus(io, parsed.args);
  },
};

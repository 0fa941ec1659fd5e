/** `proxy-migrate rollback <cluster> <node>`: move one node back to the original (IPVS) kube-proxy, verified. */
import {
  checkOf,
  clusterFlags,
  clusterOptions,
  commandLine,
  formatOptions,
  withExamples,
} from './args.js';
import type { NodeRunArgs } from './node-run.js';
import type { CliIo, Subcommand } from './types.js';

const usage = 'proxy-migrate rollback [<cluster>] <node> [--yes] [-o text|json]';

const body = `Usage: ${usage}

Moves one node back to the original kube-proxy: the inverse of its cutover's label changes,
newest first (switching, then the label removed), waits until the original kube-proxy is Ready,
and verifies the way back with evidence (IPVS virtual servers for the Services, kube-ipvs0,
no nft table, ClusterIP and NodePort answering). The canary objects stay for the other nodes.

  --yes                confirm without asking (required without a terminal)
  -o, --format text|json
                       the result (default text; progress goes to stderr, data to stdout)
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context; with either, <cluster> may be left out (named after it)

Exit codes: 0 verified back on IPVS, 2 refused before any write (lock held, not confirmed),
5 the node needs a person (the way back did not verify), 1 error, 64 usage, 78 configuration (a bad kubeconfig too).`;

const examples = [
  'proxy-migrate rollback cluster-a blue-1 --yes',
  'proxy-migrate rollback blue-1 --kubeconfig ~/.kube/prod --yes -o json',
];

const help = withExamples(body, examples);

const options = {
  yes: { type: 'boolean', default: false },
  ...formatOptions,
  ...clusterOptions,
} as const;

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; args: NodeRunArgs } | { ok: false; code: number } {
  const parsed = commandLine(argv, options, help, io, {
    required: 2,
    missing: 'Which cluster and node?',
    formats: ['text', 'json'],
  });
  if (!parsed.ok) return parsed;
  const { values, args, format } = parsed.line;
  const [cluster, node = ''] = args;
  return {
    ok: true,
    args: {
      kind: 'rollback',
      cluster,
      node,
      yes: values.yes,
      dryRun: false,
      autoRollback: false,
      format,
      ...clusterFlags(values),
    },
  };
}

export const rollbackCommand: Subcommand = {
  name: 'rollback',
  summary: 'move one node back to the original kube-proxy, verified',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { runNodeCommand } = await import('./node-run.js');
    return runNodeCommand(io, parsed.args, usage);
  },
};

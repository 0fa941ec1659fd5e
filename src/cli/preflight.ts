/** `proxy-migrate preflight <cluster>`: the pre-flight report in a terminal, for people and CI. */
import {
  checkOf,
  clusterFlags,
  clusterOptions,
  commandLine,
  formatOptions,
  usageError,
  withExamples,
} from './args.js';
import { probeModes } from '../core/probe-selection.js';
import type { TerminalPreflight } from './preflight-run.js';
import type { CliIo, Subcommand } from './types.js';

const body = `Usage: proxy-migrate preflight [<cluster>] [options]

Checks a cluster for every known IPVS → nftables trap, per node pool, and prints the report.
Reads the API (paged lists) and each node's host through short-lived probe pods.

The cluster comes from the clusters file (CLUSTERS_FILE), or, with --kubeconfig/--context,
straight from a kubeconfig (then <cluster> is just the name shown in the report, and may be
left out: it is then the context's name).

  -o, --format text|md|json
                          report format (default text; json is the public report shape)
  --fail-on block|warn|none
                          exit 2 when blockers are found, 3 when only warnings are and
                          --fail-on warn; 0 otherwise (default block)
  --kubeconfig PATH       kubeconfig to use instead of the clusters file
  --context NAME          kubeconfig context (default: its current context)
  --pool-label KEY        node label naming pools (default: platform pool labels, then OS+kernel)
  --suppress ID[,ID…]     checks to skip, by id
  --probe all|sample|none
                          which nodes' hosts to probe: all; a few per pool plus every node
                          whose Node object differs from its pool's majority; or none (API
                          only, no pods). Default: all up to 500 nodes, sample above. Nodes
                          not probed are unknown: never a pass, and probed in full before
                          their own cutover
  --no-probe              same as --probe none
  --concurrency N         nodes probed at once (default: the clusters file's probe.concurrency, else 20)
  --probe-image IMAGE     probe pod image (default from the clusters file)
  --probe-namespace NS    where probe pods run (default proxy-migrate-probes)

Progress goes to stderr, the report to stdout. Colour only on a terminal, and never with NO_COLOR.

Exit codes: 0 ok, 2 blockers, 3 warnings (with --fail-on warn), 1 error, 64 usage, 78 config
(a bad kubeconfig too).`;

const examples = [
  'proxy-migrate preflight cluster-a',
  'proxy-migrate preflight --kubeconfig ~/.kube/prod --context prod-eu -o json',
  'proxy-migrate preflight cluster-a --fail-on warn --suppress ipvs-scheduler,nodelocaldns',
  'proxy-migrate preflight cluster-a --probe none -o md',
  'proxy-migrate preflight cluster-a --probe all --concurrency 50',
];

const help = withExamples(body, examples);

const options = {
  ...formatOptions,
  'fail-on': { type: 'string', default: 'block' },
  ...clusterOptions,
  'pool-label': { type: 'string' },
  suppress: { type: 'string' },
  probe: { type: 'string' },
  'no-probe': { type: 'boolean', default: false },
  concurrency: { type: 'string' },
  'probe-image': { type: 'string' },
  'probe-namespace': { type: 'string' },
} as const;

const formats = ['text', 'md', 'json'] as const;
const thresholds = ['block', 'warn', 'none'] as const;

const usage = (io: CliIo, message: string): { ok: false; code: number } => ({
  ok: false,
  code: usageError(io, help, message),
});

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; args: TerminalPreflight } | { ok: false; code: number } {
  const parsed = commandLine(argv, options, help, io, {
    required: 1,
    missing: 'Which cluster?',
    formats,
  });
  if (!parsed.ok) return parsed;
  const { values, args, format } = parsed.line;
  const [cluster] = args;
  const failOn = thresholds.find((t) => t === values['fail-on']);
  if (failOn === undefined) return usage(io, `--fail-on must be one of ${thresholds.join(', ')}.`);
  const probeMode = values['no-probe'] ? 'none' : probeModes.find((m) => m === values.probe);
  if (values.probe !== undefined && probeMode === undefined)
    return usage(io, `--probe must be one of ${probeModes.join(', ')}.`);
  if (values['no-probe'] && values.probe !== undefined && values.probe !== 'none')
    return usage(io, `--no-probe contradicts --probe ${values.probe}.`);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (
    concurrency !== undefined &&
    (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 200)
  ) {
    return usage(io, '--concurrency must be a whole number from 1 to 200.');
  }
  return {
    ok: true,
    args: {
      cluster,
      format,
      failOn,
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(probeMode === undefined ? {} : { probeMode }),
      suppressed: (values.suppress ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
      ...clusterFlags(values),
      ...(values['pool-label'] === undefined ? {} : { poolLabel: values['pool-label'] }),
      ...(values['probe-image'] === undefined ? {} : { probeImage: values['probe-image'] }),
      ...(values['probe-namespace'] === undefined
        ? {}
        : { probeNamespace: values['probe-namespace'] }),
    },
  };
}

export const preflightCommand: Subcommand = {
  name: 'preflight',
  summary: 'check a cluster for every migration trap and print the report',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    // Loaded on demand: the Kubernetes client is heavy and other subcommands do not need it.
    const { runTerminalPreflight } = await import('./preflight-run.js');
    return runTerminalPreflight(io, parsed.args);
  },
};

/** `proxy-migrate twin`: serve a scenario as a Kubernetes API for kubectl, the bot and rehearsals. */
import { resolve } from 'node:path';
import { checkOf, flagsOnly, withExamples } from './args.js';
import { EXIT, type CliIo, type Subcommand } from './types.js';

const body = `Usage: proxy-migrate twin --scenario FILE_OR_NAME [--port N] [--host H] [--kubeconfig OUT] [--speed X]

Starts the cluster twin: a Kubernetes API server in a box that serves the scenario's objects
(nodes, kube-proxy's DaemonSet and ConfigMap, Services, …) to kubectl and to proxy-migrate.

  --scenario     a scenario file, or the name of a shipped one (see scenarios/)
  --port         port to listen on (default: a free one)
  --host         address to listen on (default 127.0.0.1)
  --kubeconfig   where to write a kubeconfig whose context is the scenario's name
                 (default ./<scenario name>.kubeconfig)
  --speed        simulated clock speed (default 1)

Runs until SIGINT or SIGTERM; then, in another terminal:
  KUBECONFIG=/tmp/twin.kubeconfig kubectl get nodes`;

const examples = [
  'proxy-migrate twin --scenario kubeadm-ipvs --kubeconfig /tmp/twin.kubeconfig',
  'proxy-migrate twin --scenario traps --port 6443 --speed 10',
];

const help = withExamples(body, examples);

const options = {
  scenario: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  kubeconfig: { type: 'string' },
  speed: { type: 'string' },
} as const;

function usageError(io: CliIo, message: string): { ok: false; code: number } {
  io.stderr.write(`${message}\n\n${help}\n`);
  return { ok: false, code: EXIT.usage };
}

function parse(
  argv: string[],
  io: CliIo,
):
  | { ok: true; scenario: string; port: number; speed: number; host?: string; kubeconfig?: string }
  | { ok: false; code: number } {
  const parsed = flagsOnly(argv, options, help, io);
  if (!parsed.ok) return parsed;
  const { values } = parsed;
  if (values.scenario === undefined) return usageError(io, 'Missing --scenario.');
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return usageError(io, `--port must be 0–65535, not "${values.port}".`);
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!Number.isFinite(speed) || speed <= 0)
    return usageError(io, `--speed must be a positive number, not "${values.speed}".`);
  return {
    ok: true,
    scenario: values.scenario,
    port,
    speed,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values.kubeconfig === undefined ? {} : { kubeconfig: values.kubeconfig }),
  };
}

export const twinCommand: Subcommand = {
  name: 'twin',
  summary: 'serve a cluster scenario as a Kubernetes API (for rehearsals, the demo and tests)',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { port, speed } = parsed;
    const values = parsed;

    // Loaded on demand so other subcommands do not pay for the twin.
    const { ScenarioError, startTwin } = await import('@proxy-migrate/twin');
    let twin;
    try {
      twin = await startTwin({
        scenario: values.scenario,
        port,
        speed,
        ...(values.host === undefined ? {} : { host: values.host }),
      });
    } catch (error) {
      if (error instanceof ScenarioError) {
        io.stderr.write(`${error.message}\n`);
        return EXIT.usage;
      }
      throw error;
    }
    const kubeconfig = resolve(values.kubeconfig ?? `${twin.name}.kubeconfig`);
    await twin.writeKubeconfig(kubeconfig);
    for (const warning of twin.scenario.warnings) io.stderr.write(`warning: ${warning}\n`);
    io.stdout.write(
      `twin "${twin.name}" serving ${twin.url}\nkubeconfig ${kubeconfig} (context ${twin.name})\n` +
        `try: KUBECONFIG=${kubeconfig} kubectl get nodes\n`,
    );
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await twin.close();
    return EXIT.ok;
  },
};

/** `proxy-migrate demo`: the bot stack against the twin, Slack rendered in the terminal. */
import { checkOf, flagsOnly, usageError, withExamples } from './args.js';
import { colourOn } from './colour.js';
import { EXIT, type CliIo, type Subcommand } from './types.js';

const body = `Usage: proxy-migrate demo [--scenario NAME] [--in-process] [--speed X] [--interactive]

Starts the cluster twin with a shipped scenario, the real bot stack (Bolt over HTTP, the job
queue and worker, the Kubernetes client, probe pods) and a local stand-in for Slack, then plays
the whole story with signed slash commands and button clicks (pre-flight, plan, a cutover
requested by @alice, her own approval refused, @bob's approval, the verified swap, the Rollback
click and its verification, a blocked node refused) and prints every Slack message the bot
sends. No Slack workspace or cluster needed. Uses BullMQ when Redis answers at REDIS_URL
(default redis://127.0.0.1:6379), runs in-process otherwise, and says which.

  --scenario NAME   shipped twin scenario (default kubeadm-ipvs; try traps or eks-al2-al2023)
  --in-process      do not use Redis even if it answers
  --speed X         simulated clock speed of the twin (default 20)
  --interactive     you type the slash commands and press the buttons, as alice, bob or carol

Colour only on a terminal, and never with NO_COLOR set.

Exits 0 when every part of the story happened (with --interactive: when you quit).`;

const examples = [
  'proxy-migrate demo',
  'proxy-migrate demo --scenario traps --in-process',
  'proxy-migrate demo --interactive --speed 40',
];

const help = withExamples(body, examples);

const options = {
  scenario: { type: 'string', default: 'kubeadm-ipvs' },
  'in-process': { type: 'boolean', default: false },
  speed: { type: 'string', default: '20' },
  interactive: { type: 'boolean', default: false },
} as const;

function parse(
  argv: string[],
  io: CliIo,
):
  | {
      ok: true;
      values: { scenario: string; 'in-process': boolean; interactive: boolean };
      speed: number;
    }
  | { ok: false; code: number } {
  const parsed = flagsOnly(argv, options, help, io);
  if (!parsed.ok) return parsed;
  const speed = Number(parsed.values.speed);
  if (!Number.isFinite(speed) || speed <= 0)
    return { ok: false, code: usageError(io, help, '--speed must be a positive number.') };
  return { ok: true, values: parsed.values, speed };
}

export const demoCommand: Subcommand = {
  name: 'demo',
  summary:
    'the whole story (pre-flight, plan, approval, cutover, rollback) on the twin, Slack in the terminal',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { values, speed } = parsed;
    const { runDemo } = await import('../demo/run-demo.js');
    const { ScenarioError } = await import('@proxy-migrate/twin');
    try {
      return await runDemo({
        scenario: values.scenario,
        redisUrl: io.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        inProcess: values['in-process'],
        speed,
        out: io.stdout,
        colour: colourOn(io, io.stdout),
        timeoutMs: 120_000,
        ...(values.interactive ? { input: io.stdin ?? process.stdin } : {}),
      });
    } catch (error) {
      if (error instanceof ScenarioError) {
        io.stderr.write(`${error.message}\n`);
        return EXIT.usage;
      }
      io.stderr.write(`demo failed: ${(error as Error).message}\n`);
      return EXIT.failure;
    }
  },
};

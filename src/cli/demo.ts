/** `proxy-migrate demo`: the bot stack against the twin, Slack rendered in the terminal. */
import { parseOrExit } from './args.js';
import { EXIT, type Subcommand } from './types.js';

const help = `Usage: proxy-migrate demo [--scenario NAME] [--in-process] [--speed X] [--interactive]

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

Exits 0 when every part of the story happened (with --interactive: when you quit).`;

const options = {
  scenario: { type: 'string', default: 'kubeadm-ipvs' },
  'in-process': { type: 'boolean', default: false },
  speed: { type: 'string', default: '20' },
  interactive: { type: 'boolean', default: false },
} as const;

export const demoCommand: Subcommand = {
  name: 'demo',
  summary:
    'the whole story (pre-flight, plan, approval, cutover, rollback) on the twin, Slack in the terminal',
  help,
  run: async (argv, io) => {
    const parsed = parseOrExit(argv, options, help, io);
    if (!parsed.ok) return parsed.code;
    const { values, positionals } = parsed.parsed;
    if (positionals.length > 0) {
      io.stderr.write(`Unexpected argument: ${positionals.join(' ')}\n\n${help}\n`);
      return EXIT.usage;
    }
    const speed = Number(values.speed);
    if (!Number.isFinite(speed) || speed <= 0) {
      io.stderr.write(`--speed must be a positive number.\n\n${help}\n`);
      return EXIT.usage;
    }
    const { runDemo } = await import('../demo/run-demo.js');
    const { ScenarioError } = await import('@proxy-migrate/twin');
    try {
      return await runDemo({
        scenario: values.scenario,
        redisUrl: io.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        inProcess: values['in-process'],
        speed,
        out: io.stdout,
        colour: (io.stdout as NodeJS.WriteStream).isTTY === true,
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

/** `proxy-migrate resume <cluster> [<run>]`: carry on (or roll back) runs a dead process left unfinished. */
import type { RunState } from '../core/run-state.js';
import { toUserMessage } from '../errors.js';
import {
  checkOf,
  clusterFlags,
  clusterOptions,
  commandLine,
  formatOptions,
  withExamples,
} from './args.js';

import { exitFor, printResult } from './node-run.js';
import { resolveTerminalCluster, terminalLogger } from './terminal-cluster.js';
import { openTerminalRuns } from './terminal-runs.js';
import { EXIT, type CliIo, type Subcommand } from './types.js';

const usage = 'proxy-migrate resume [<cluster>] [<run>] [-o text|json]';

const body = `Usage: ${usage}

Finds the cluster's runs that are unfinished and that no live process works on (a terminal was
killed, a bot pod died), and carries each on from its last saved step: every step first reads
what the cluster already has, so running it again is safe; a verification or deadline that now
fails rolls the node back as it would have. A terminal run killed at its confirmation prompt
asks again (and, without a terminal to ask in, ends refused); a Slack run waiting for its
buttons is left to the bot.
Run state is read from Redis when it answers (REDIS_URL), else from files
(PROXY_MIGRATE_STATE_DIR, default ~/.proxy-migrate/runs).

  -o, --format text|json
                       each resumed run's result (default text)
  --kubeconfig PATH    a kubeconfig instead of the clusters file
  --context NAME       its context; with either and no argument, <cluster> is named after it

Exit codes: the worst of the resumed runs' (0 verified, 2 refused, 4 rolled back, 5 needs
attention, 1 error); 0 when there was nothing to resume; 64 usage, 78 configuration (a bad
kubeconfig too).`;

const examples = [
  'proxy-migrate resume cluster-a',
  'proxy-migrate resume cluster-a co-261201104508-d80d4a -o json',
];

const help = withExamples(body, examples);

const options = {
  ...formatOptions,
  ...clusterOptions,
} as const;

function parse(argv: string[], io: CliIo) {
  return commandLine(argv, options, help, io, {
    required: 1,
    optional: 1,
    missing: 'Which cluster?',
    formats: ['text', 'json'],
  });
}

const RUN_DEADLINE_MS = 60 * 60_000;

export const resumeCommand: Subcommand = {
  name: 'resume',
  summary: 'carry on runs a killed process left unfinished',
  help,
  options,
  examples,
  check: checkOf(parse),
  run: async (argv, io) => {
    const parsed = parse(argv, io);
    if (!parsed.ok) return parsed.code;
    const { values, args, format } = parsed.line;
    const [cluster, runId] = args;
    const resolved = resolveTerminalCluster(io, {
      cluster,
      ...clusterFlags(values),
      usage,
      durable: true,
    });
    if (!resolved.ok) return resolved.code;
    const logger = terminalLogger(io);
    const terminal = await openTerminalRuns(
      io,
      resolved.cluster,
      resolved.kubeconfigs,
      logger,
      resolved.runStore,
      true,
    );
    try {
      const ids = await terminal.resume(runId);
      if (ids.length === 0) {
        io.stderr.write(
          `Nothing to resume on ${resolved.cluster.name}${runId === undefined ? '' : ` (run ${runId})`}.\n`,
        );
        return EXIT.ok;
      }
      io.stderr.write(`resuming ${ids.join(', ')} (state: ${terminal.store.description})\n`);
      let worst = EXIT.ok as number;
      for (const id of ids) {
        const state: RunState = await terminal.runs.waitFor(id, RUN_DEADLINE_MS);
        printResult(io, state, format);
        const code = state.outcome === undefined ? EXIT.failure : exitFor[state.outcome];
        if (code !== EXIT.ok) worst = Math.max(worst, code);
      }
      return worst;
    } catch (error) {
      logger.error({ err: error }, 'the run could not be driven to its end');
      io.stderr.write(`${toUserMessage(error)}\n`);
      return EXIT.failure;
    } finally {
      await terminal.close();
    }
  },
};

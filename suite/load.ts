// Load suite: N concurrent slash commands and C concurrent approval clicks against the real bot
// (its own process, Redis, the fake Slack, the twin), each burst interleaved with as many
// requests to a bare Bolt listener that only acks, so both are timed on the same machine at the
// same moment. Prints ack latency p50/p99 beside the bare listener's, and that every request was
// answered exactly once: acks, answers per request, runs started, approvals executed, duplicate
// Slack posts (must be 0). Exits 1 when an exactly-once count is off; timings are figures only.
// The reduced form in CI is test/integration/suites/load-suite.test.ts.
//   npm run suite:load -- [--commands 100] [--clicks 100] [--separate-worker]
import { cpus, loadavg } from 'node:os';
import { fmtMs, summarize } from '../test/helpers/burst.js';
import { startLoadRig } from '../test/helpers/load-rig.js';
import {
  clickBurst,
  commandBurst,
  duplicatePosts,
  runsAwaitingApproval,
  type BurstTimes,
} from '../test/helpers/load-scenarios.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const commands = arg('--commands', 100);
const clicks = arg('--clicks', 100);
const separateWorker = process.argv.includes('--separate-worker');
/** The runs the clicks approve: every node of kubeadm-ipvs its node pre-flight lets through. */
const NODES = ['blue-1', 'blue-2', 'green-1', 'green-2'];

const rig = await startLoadRig({ bare: true, separateWorker });
let violations = 0;
const check = (label: string, got: number, want: number): string => {
  if (got !== want) violations += 1;
  return `${label} ${got}${got === want ? '' : ` (must be ${want})`}`;
};
const latency = (label: string, times: BurstTimes): string[] => {
  const bot = summarize(times.bot);
  const bare = summarize(times.bare);
  return [
    `  ${label.padEnd(22)} bot  p50 ${fmtMs(bot.p50)}  p99 ${fmtMs(bot.p99)}`,
    `  ${''.padEnd(22)} bare p50 ${fmtMs(bare.p50)}  p99 ${fmtMs(bare.p99)}   p99 ratio ${(bot.p99 / bare.p99).toFixed(2)}×`,
  ];
};

try {
  console.log(
    `load suite: ${commands} concurrent slash commands, ${clicks} concurrent clicks, one machine ` +
      `(${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}), ${
        separateWorker ? 'jobs in a worker process' : "the bot's in-process worker"
      }`,
  );
  const cmd = await commandBurst(rig, commands);
  console.log(`slash commands: ${commands} × /proxy-migrate preflight cluster-a (3 people)`);
  for (const line of latency('ack latency', cmd.times)) console.log(line);
  console.log(
    `  ${check('acked', cmd.acked, commands)}; answered once ${cmd.answeredOnce}, ` +
      `${check('twice', cmd.answeredTwice, 0)}, ${check('never', cmd.unanswered, 0)}`,
  );
  console.log(
    `  ${check('runs started', cmd.runs, 1)}, ${check('status cards', cmd.cards, 1)}; ` +
      `${check('"queued"', cmd.queued, 1)}, ${check('"already running"', cmd.alreadyRunning, commands - 1)} ` +
      `(${cmd.withLink} with the thread's link)`,
  );

  const cards = await runsAwaitingApproval(rig, NODES);
  const clk = await clickBurst(rig, cards, clicks);
  console.log(
    `clicks: ${clicks} × Approve on ${cards.length} runs waiting for approval (approver, requester, non-approver)`,
  );
  for (const line of latency('ack latency', clk.times)) console.log(line);
  console.log(
    `  ${check('acked', clk.acked, clicks)}; ${check('approved once', clk.approvedOnce, cards.length)}, ` +
      `${check('approved twice', clk.approvedTwice, 0)}, ${check('cards closed', clk.cardsClosed, cards.length)}`,
  );
  console.log(
    `  ${check('refused once', clk.refusedOnce, clicks - cards.length)}, ` +
      `${check('answered twice', clk.answeredTwice, 0)}, ${check('answered by the card alone', clk.silent, cards.length)}`,
  );
  console.log(`${check('duplicate Slack posts', duplicatePosts(rig), 0)}`);
  console.log(`exactly-once violations: ${violations} (must be 0)`);
} finally {
  await rig.stop();
}
process.exitCode = violations === 0 ? 0 : 1;

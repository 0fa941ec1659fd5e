// Ack latency under a burst: N concurrent signed `/proxy-migrate …` slash commands against the
// real bot (its own process: Bolt's HTTP receiver behind the edge guard, Redis, BullMQ and the
// in-process worker, the fake Slack, the twin) and, in the same bursts and on the same machine,
// against a bare Bolt listener whose handler only acks. Goal: enqueueing verbs' p99 within 1.5×
// the bare listener's p99.
// A burst's p99 of 100 acks is its second-slowest, and other work on a shared machine moves it
// from one burst to the next, so the figure is the median over rounds of each burst's own ratio
// (five by default), with how many bursts were within the goal.
// Prints figures; asserts nothing.
//   npm run bench:ack -- [--n 100] [--rounds 5] [--separate-worker]
import { cpus, loadavg } from 'node:os';
import { burst, fmtMs, percentile, summarize } from '../test/helpers/burst.js';
import { startLoadRig } from '../test/helpers/load-rig.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const n = arg('--n', 100);
const rounds = arg('--rounds', 5);
const GOAL = 1.5;

const distinct = (round: number, i: number): string => `load-${round}-${i}`;
const clusters = ['cluster-a'];
for (let r = 0; r < rounds; r += 1) for (let i = 0; i < n; i += 1) clusters.push(distinct(r, i));

const separateWorker = process.argv.includes('--separate-worker');
const rig = await startLoadRig({ clusters, bare: true, separateWorker });
const bareUrl = rig.bareUrl!;

type Target = 'help' | 'preflight-many' | 'preflight-one';
const targets: Target[] = ['preflight-many', 'help', 'preflight-one'];
/** Ack times by target and round, the bot's and the bare listener's in the same burst. */
const bot: Record<Target, number[][]> = { help: [], 'preflight-many': [], 'preflight-one': [] };
const bare: Record<Target, number[][]> = { help: [], 'preflight-many': [], 'preflight-one': [] };
/** CPU ms of the bot's and the bare listener's processes over each target's bursts. */
const cpu: Record<Target, { bot: number; bare: number }> = {
  help: { bot: 0, bare: 0 },
  'preflight-many': { bot: 0, bare: 0 },
  'preflight-one': { bot: 0, bare: 0 },
};
const failures: string[] = [];
const expectAnswer: string[] = [];

const botRequest = (target: Target, round: number, i: number) => {
  const id = `${target}-${round}-${i}`;
  switch (target) {
    case 'help':
      return rig.command(rig.botUrl, 'help', id);
    case 'preflight-many':
      expectAnswer.push(id);
      return rig.command(rig.botUrl, `preflight ${distinct(round, i)}`, id);
    case 'preflight-one':
      expectAnswer.push(id);
      return rig.command(rig.botUrl, 'preflight cluster-a', id);
  }
};

/**
 * One burst: n requests to the bot and n to the bare listener, interleaved and all in flight
 * at once, so both meet the same machine at the same moment (other work on a shared machine
 * comes and goes faster than one burst after another could follow it).
 */
async function pairedBurst(target: Target, round: number): Promise<void> {
  const requests = Array.from({ length: n }, (_, i) => [
    botRequest(target, round, i),
    rig.command(bareUrl, `preflight ${distinct(round, i)}`, `bare-${target}-${round}-${i}`),
  ]).flat();
  const before = rig.cpuMs();
  const answers = await burst(requests);
  // The CPU each process spent on the burst and on what it deferred until after it.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = rig.cpuMs();
  cpu[target].bot += after.bot - before.bot;
  cpu[target].bare += (after.bare ?? 0) - (before.bare ?? 0);
  bot[target][round] = answers.filter((_, k) => k % 2 === 0).map((a) => a.ms);
  bare[target][round] = answers.filter((_, k) => k % 2 === 1).map((a) => a.ms);
  for (const answer of answers) {
    if (answer.status !== 200) failures.push(`${target}: HTTP ${answer.status}`);
  }
}

// Warm-up: the first requests of a process pay for JIT compilation and lazy imports.
await burst(Array.from({ length: 10 }, (_, i) => rig.command(bareUrl, 'help', `warm-bare-${i}`)));
await burst(Array.from({ length: 10 }, (_, i) => rig.command(rig.botUrl, 'help', `warm-${i}`)));

for (let round = 0; round < rounds; round += 1) {
  // Rotate, so no target always follows the same one.
  for (const target of targets.map((_, k) => targets[(k + round) % targets.length]!)) {
    await pairedBurst(target, round);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// Every enqueueing command is answered once through its response_url ("queued", or "already
// running"); none twice.
const answered = await rig.fake
  .waitFor(
    (fake) => {
      const ids = new Set(fake.responses.map((r) => r.id));
      return expectAnswer.every((id) => ids.has(id)) ? ids : undefined;
    },
    30_000,
    'an answer to every pre-flight',
  )
  .catch(() => new Set(rig.fake.responses.map((r) => r.id)));
const perId = new Map<string, number>();
for (const r of rig.fake.responses) perId.set(r.id, (perId.get(r.id) ?? 0) + 1);
const missing = expectAnswer.filter((id) => !answered.has(id)).length;
const duplicates = [...perId.values()].filter((count) => count > 1).length;
const runs = await rig.store.list({ limit: 10_000 });
const runsOf = (cluster: (c: string) => boolean): number =>
  runs.filter((r) => cluster(r.cluster)).length;

// Each burst's p99 against the bare listener's in the same burst; the median over rounds.
const ratios = (target: Target): number[] =>
  bot[target].map((ms, round) => summarize(ms).p99 / summarize(bare[target][round]!).p99);
const median = (values: number[]): number => percentile(values, 50);
const bareAll = summarize(targets.flatMap((t) => bare[t].flat()));
const row = (label: string, target: Target): string => {
  const s = summarize(bot[target].flat());
  const ratio = median(ratios(target));
  const perRound = ratios(target)
    .map((r) => r.toFixed(2))
    .join(' ');
  const within = ratios(target).filter((r) => r <= GOAL).length;
  const perRequest = (ms: number): string => (ms / (n * rounds)).toFixed(2);
  const goal = `${ratio <= GOAL ? 'within' : 'OVER'} ${GOAL}×, ${within}/${rounds} bursts`;
  const cpuShare = `CPU/request ${perRequest(cpu[target].bot)} ms, bare ${perRequest(cpu[target].bare)}`;
  return `${label.padEnd(34)} ${fmtMs(s.p50)} ${fmtMs(s.p99)} ${fmtMs(s.max)}   ${ratio.toFixed(2)}× (${goal})  [bursts: ${perRound}]  ${cpuShare}`;
};
console.log(
  `ack latency: ${n} concurrent slash commands × ${rounds} rounds per target, one machine ` +
    `(${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}), ${
      separateWorker ? 'jobs in a worker process' : "the bot's in-process worker"
    }; goal: enqueueing verbs' p99 ≤ ${GOAL}× bare Bolt's`,
);
console.log(
  `${''.padEnd(34)}      p50       p99       max   p99 ÷ bare p99 of the same burst (median of ${rounds})`,
);
console.log(
  `${'bare Bolt listener (ack only)'.padEnd(34)} ${fmtMs(bareAll.p50)} ${fmtMs(bareAll.p99)} ${fmtMs(bareAll.max)}`,
);
console.log(row('help (for reference)', 'help'));
console.log(row(`preflight, ${n} distinct clusters`, 'preflight-many'));
console.log(row('preflight, one cluster', 'preflight-one'));
const verdict = (['preflight-many', 'preflight-one'] as const)
  .map((t) => `${t} ${median(ratios(t)).toFixed(2)}×`)
  .join(', ');
const met = (['preflight-many', 'preflight-one'] as const).every((t) => median(ratios(t)) <= GOAL);
console.log(
  `goal (enqueueing verbs' p99 ≤ ${GOAL}× bare p99 ${Math.round(bareAll.p99)} ms over all bursts): ` +
    `${met ? 'met' : 'NOT met'}: ${verdict}`,
);
console.log(
  `runs started: ${runsOf((c) => c.startsWith('load-'))} for ${rounds * n} distinct pre-flights, ` +
    `${runsOf((c) => c === 'cluster-a')} for ${rounds * n} of one cluster`,
);
console.log(
  `answers: ${expectAnswer.length - missing}/${expectAnswer.length} pre-flights answered, ` +
    `${duplicates} answered twice (must be 0), ${failures.length} non-200 acks (must be 0)`,
);
for (const failure of failures.slice(0, 5)) console.log(`  ${failure}`);
await rig.stop();

// The crash suite: the bot (`proxy-migrate bot`, BullMQ on Redis, the twin as the cluster, the
// fake Slack) kill -9'd at every step boundary of a cutover and of a rollback, then at random
// points of N more cases, and restarted each time. Prints runs, kills, outcomes, invariant
// violations and duplicate Slack posts beside their goals; exits 1 unless every guarantee held.
//   npm run suite:crash -- [--runs 10] [--seed 1] [--speed 10] [--no-boundaries]
import { boundaryCases, randomCases } from './crash/cases.js';
import { formatReport, passed } from './crash/report.js';
import { runCrashSuite } from './crash/run-suite.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : (process.argv[i + 1] ?? fallback);
};
const runs = Number(arg('--runs', '10'));
const seed = Number(arg('--seed', String(Date.now() % 100_000)));
const speed = Number(arg('--speed', '10'));
const boundaries = !process.argv.includes('--no-boundaries');

const cases = [
  ...(boundaries ? boundaryCases() : []),
  ...randomCases({ runs, seed, cutoverWindowMs: 12_000, rollbackWindowMs: 6_000 }),
];
console.log(
  `crash suite: ${cases.length} cases (${boundaries ? 'every step boundary, ' : ''}${runs} random, seed ${seed}), twin speed ${speed}`,
);
const started = performance.now();
const report = await runCrashSuite({
  cases,
  twinSpeed: speed,
  onCase: (line) => console.log(`  ${line}`),
});
console.log(`\n${formatReport(report)}took ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = passed(report) ? 0 : 1;

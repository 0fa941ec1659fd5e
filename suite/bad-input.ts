// The bad-input suite: property-based fuzzing (fast-check) of slash-command text, button clicks
// and the reject modal, with forged, stale and replayed signatures, other teams, strangers,
// four-eyes, hostile names and broken bodies, all over HTTP against the running bot (Bolt, the
// fake Slack, Redis, the twin). Prints cases by category and failures beside the goal (0).
//   npm run suite:bad-input -- [--cases 10000] [--seed 42] [--concurrency 16]
import { categories } from '../test/helpers/bad-input/case.js';
import { runBadInputSuite } from '../test/helpers/bad-input/suite.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : (process.argv[i + 1] ?? fallback);
};
const cases = Number(arg('--cases', '10000'));
const seed = Number(arg('--seed', String(Date.now() % 1_000_000)));
const concurrency = Number(arg('--concurrency', '16'));
const GOAL_CASES = 10_000;

console.log(`bad-input suite: ${cases} cases, seed ${seed} (rerun with --seed ${seed})`);
let last = 0;
const result = await runBadInputSuite({
  cases,
  seed,
  concurrency,
  onProgress: (done, total) => {
    if (done - last >= total / 10 || done === total) {
      last = done;
      process.stderr.write(`  ${done}/${total}\n`);
    }
  },
});

const pad = (s: string | number, n: number): string => String(s).padStart(n);
console.log(`\n${'category'.padEnd(18)} ${pad('cases', 7)} ${pad('failures', 9)}`);
for (const c of categories) {
  const row = result.byCategory[c];
  console.log(`${c.padEnd(18)} ${pad(row.cases, 7)} ${pad(row.failures, 9)}`);
}
const failed = result.failures.length;
console.log(`${'total'.padEnd(18)} ${pad(result.cases, 7)} ${pad(failed, 9)}`);
console.log(
  `\nanswers: ${result.answers.http4xx} 4xx, ${result.answers.ephemeral} ephemeral replies, ${result.answers.modal} modal errors; ${result.answers.recorded} refusals recorded on the run and in the audit trail`,
);
console.log(
  `log lines read: ${result.logLines}; ${result.seconds.toFixed(1)} s, ${(result.cases / result.seconds).toFixed(0)} cases/s`,
);
console.log(
  `cases:    ${pad(result.cases, 7)}   goal >= ${GOAL_CASES}${result.cases >= GOAL_CASES ? '' : '  (below the goal)'}`,
);
console.log(`failures: ${pad(failed, 7)}   goal 0`);
for (const f of result.failures.slice(0, 40)) {
  console.log(`  ✗ [${f.category}] ${f.describe.slice(0, 160)}\n      ${f.why.slice(0, 400)}`);
}
if (failed > 40) console.log(`  … and ${failed - 40} more`);
process.exit(failed === 0 ? 0 : 1);

// The api-faults suite: pre-flights, cutovers and rollbacks through the terminal program against
// the twin under 20% 5xx, 429 storms, a 2 s latency tail, 409 storms, reset connections and
// dropped watches (and all at once). Prints, per scenario, the requests, the faults injected by
// kind, the client's retries, the outcomes and the invariant violations, beside the goal: every
// run ends as the clean run did, with zero violations. Exits 1 on any violation.
//   npm run suite:api-faults [-- --speed 1] [--only 429-storm,409-storm]
import { PROFILES, runApiFaultsSuite, type ScenarioResult } from './api-faults/run.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const only = arg('--only')?.split(',');
const profiles = only === undefined ? PROFILES : PROFILES.filter((p) => only.includes(p.name));

const pad = (s: string | number, n: number): string => String(s).padStart(n);
const header =
  'scenario       wall s  requests  5xx  429  409 reset slow wdrop | retries 429 5xx time conn 409 | held  steps | pre-flight cutover   rollback   violations';
console.log(header);
const line = (r: ScenarioResult): string =>
  [
    r.profile.padEnd(13),
    pad((r.wallMs / 1000).toFixed(1), 7),
    pad(r.requests, 9),
    pad(r.injected.error, 4),
    pad(r.injected.throttle, 4),
    pad(r.injected.conflict, 4),
    pad(r.injected.reset, 5),
    pad(r.injected.latency, 4),
    pad(r.injected.watchDrop, 5),
    ' |        ',
    pad(r.clientRetries.throttled, 3),
    pad(r.clientRetries['server-error'], 3),
    pad(r.clientRetries.timeout, 4),
    pad(r.clientRetries.connection, 4),
    pad(r.clientRetries.conflict, 3),
    ' |',
    pad(r.rateLimited.delayed, 4),
    pad(r.stepRetries, 6),
    ' |',
    r.preflight.padEnd(10),
    r.cutover.padEnd(10),
    r.rollback.padEnd(10),
    pad(r.violations.length, 4),
  ].join(' ');

const { results } = await runApiFaultsSuite({
  speed: Number(arg('--speed') ?? '1'),
  profiles,
  onResult: (r) => {
    console.log(line(r));
    for (const v of r.violations) console.log(`    violation: ${v}`);
  },
});

const violations = results.reduce((n, r) => n + r.violations.length, 0);
const injected = results.reduce(
  (n, r) => n + r.injected.error + r.injected.throttle + r.injected.conflict + r.injected.reset,
  0,
);
const ended = results.filter(
  (r) => r.preflight === 'same' && r.cutover === 'verified' && r.rollback === 'verified',
).length;
console.log('');
console.log(
  `pre-flights, cutovers and rollbacks ended as the clean run: ${ended * 3} of ${results.length * 3}   (goal: all)`,
);
console.log(`faults answered instead of the server: ${injected}`);
console.log(`invariant violations: ${violations}   (goal: 0)`);
console.log(
  'watch drops: proxy-migrate opens no watch (it polls, each wait with a deadline), so drops are 0 with the fault in force',
);
process.exitCode = violations === 0 ? 0 : 1;

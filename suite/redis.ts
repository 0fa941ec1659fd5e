// The Redis suite: bot runs while a private redis-server (AOF on) restarts at random points.
// Prints runs, restarts, lost and duplicated runs and posts beside their goal (0); exits 1 when
// one of them is not 0. Never touches the shared Redis (REDIS_URL).
//   npm run suite:redis -- [--runs N] [--seed S] [--fsync always|everysec] [--no-persistence-case] [--log FILE]
import {
  formatRedisSuite,
  runRedisSuite,
  violations,
  type RedisSuiteOptions,
} from './redis-suite.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const fsync = arg('--fsync') ?? 'always';
if (fsync !== 'always' && fsync !== 'everysec') {
  console.error(`--fsync is always or everysec, not ${fsync}`);
  process.exit(2);
}
const options: RedisSuiteOptions = {
  runs: Number(arg('--runs') ?? 8),
  seed: Number(arg('--seed') ?? Date.now() % 100_000),
  fsync,
  withoutPersistence: process.argv.includes('--no-persistence-case'),
  ...(arg('--log') === undefined ? {} : { logFile: arg('--log') ?? '' }),
  progress: (line) => console.error(line),
};
const result = await runRedisSuite(options);
console.log(formatRedisSuite(result, options));
process.exit(violations(result) === 0 ? 0 : 1);

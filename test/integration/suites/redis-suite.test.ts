// The Redis suite's reduced form (npm run suite:redis runs more flows): pre-flight and cutover
// flows with their rollback while a private redis-server with AOF restarts mid-run, by SIGTERM
// and by SIGKILL. Nothing lost, nothing duplicated.
import { describe, expect, it } from 'vitest';
import {
  formatRedisSuite,
  runRedisSuite,
  type RedisSuiteOptions,
} from '../../../suite/redis-suite.js';

describe('redis suite (reduced)', () => {
  it('loses and duplicates no run and no post across Redis restarts', async () => {
    // Seed 2 restarts Redis (SIGKILL) in the middle of a cutover step; the twin runs fast.
    const options: RedisSuiteOptions = {
      runs: 2,
      seed: 2,
      kinds: ['cutover', 'preflight'],
      twinSpeed: 4,
      // A run stuck after a restart fails the test with the report, not by the test's timeout.
      runDeadlineMs: 30_000,
      fsync: 'always',
      withoutPersistence: false,
    };
    const result = await runRedisSuite(options);
    const report = formatRedisSuite(result, options);
    console.log(report);
    expect(result.flows).toHaveLength(2);
    expect(result.restarts.SIGKILL + result.restarts.SIGTERM, report).toBeGreaterThan(0);
    expect(result.lostRuns, report).toEqual([]);
    expect(result.duplicatedRuns, report).toEqual([]);
    expect(result.lostPosts, report).toEqual([]);
    expect(result.duplicatedPosts, report).toEqual([]);
    expect(Object.keys(result.outcomes)).toEqual(['verified']);
  }, 110_000);
});

// The bad-input suite's reduced form for CI: 1,000 fuzzed cases (a fixed seed, so a failure
// replays with `npm run suite:bad-input -- --cases 1000 --seed <seed>`) against the running bot
// over HTTP. Every case must get a clear answer and change nothing; see test/helpers/bad-input.
import { describe, expect, it } from 'vitest';
import { categories } from '../../helpers/bad-input/case.js';
import { runBadInputSuite } from '../../helpers/bad-input/suite.js';

const SEED = Number(process.env['BAD_INPUT_SEED'] ?? '20261201');
const CASES = 1_000;

describe('the bad-input suite (reduced)', () => {
  it(`answers ${CASES} hostile requests clearly and changes nothing (seed ${SEED})`, async () => {
    const result = await runBadInputSuite({ cases: CASES, seed: SEED });
    expect(result.failures).toEqual([]);
    expect(result.cases).toBe(CASES);
    // Every category was exercised, and the answers were of every kind.
    for (const category of categories) {
      expect(result.byCategory[category].cases, category).toBeGreaterThan(0);
    }
    expect(result.answers.http4xx).toBeGreaterThan(0);
    expect(result.answers.ephemeral).toBeGreaterThan(0);
    expect(result.answers.modal).toBeGreaterThan(0);
    expect(result.answers.recorded).toBeGreaterThan(0);
  }, 120_000);
});

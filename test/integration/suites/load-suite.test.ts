// The load suite's reduced form (`npm run suite:load` is the full one, with figures): the real
// bot in its own process, Redis, the fake Slack and the twin; a burst of identical pre-flights
// and a burst of approval clicks, each request answered exactly once, identical requests one
// run, each approval executed once. No timings are asserted: those are the suite's figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clickBurst,
  commandBurst,
  duplicatePosts,
  runsAwaitingApproval,
} from '../../helpers/load-scenarios.js';
import { startLoadRig, type LoadRig } from '../../helpers/load-rig.js';

const COMMANDS = 30;
const CLICKS = 20;

describe('load suite (reduced)', () => {
  let rig: LoadRig;
  beforeAll(async () => {
    rig = await startLoadRig();
  }, 60_000);
  afterAll(async () => {
    await rig?.stop();
  }, 30_000);

  it('answers a burst of identical pre-flights once each, with one run', async () => {
    const out = await commandBurst(rig, COMMANDS);
    expect(out.acked).toBe(COMMANDS);
    expect({ once: out.answeredOnce, twice: out.answeredTwice, none: out.unanswered }).toEqual({
      once: COMMANDS,
      twice: 0,
      none: 0,
    });
    expect(out.runs).toBe(1);
    expect(out.queued).toBe(1);
    expect(out.alreadyRunning).toBe(COMMANDS - 1);
    // The answers wait for the run's card, so each can link its thread.
    expect(out.withLink).toBe(COMMANDS - 1);
    expect(out.cards).toBe(1);
    expect(duplicatePosts(rig)).toBe(0);
  }, 60_000);

  it('answers a burst of approval clicks once each, and approves each run once', async () => {
    const cards = await runsAwaitingApproval(rig, ['blue-1', 'green-1']);
    const out = await clickBurst(rig, cards, CLICKS);
    expect(out.acked).toBe(CLICKS);
    expect(out.approvedOnce).toBe(cards.length);
    expect(out.approvedTwice).toBe(0);
    // The winning click of each run is answered by its card; every other one by one refusal.
    expect({ refused: out.refusedOnce, twice: out.answeredTwice, silent: out.silent }).toEqual({
      refused: CLICKS - cards.length,
      twice: 0,
      silent: cards.length,
    });
    expect(out.cardsClosed).toBe(cards.length);
    expect(duplicatePosts(rig)).toBe(0);
  }, 90_000);
});

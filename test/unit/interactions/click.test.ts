import { describe, expect, it } from 'vitest';
import { clickFacts } from '../../../src/interactions/click.js';

const click = (user: Record<string, unknown>) => ({
  type: 'block_actions',
  user,
  team: { id: 'T0HOME' },
  container: { channel_id: 'C0OPS', message_ts: '1700000000.000100' },
  actions: [{ action_id: 'run.approve', value: 'co-abcdef' }],
  trigger_id: 't',
});

describe('clickFacts', () => {
  it('reads the clicking user’s own team, and the request’s team only when the user names none', () => {
    expect(clickFacts(click({ id: 'U0BOB', team_id: 'T0OTHER' }))).toMatchObject({
      userId: 'U0BOB',
      userTeamId: 'T0OTHER',
    });
    expect(clickFacts(click({ id: 'U0BOB' }))).toMatchObject({ userTeamId: 'T0HOME' });
  });

  // Found by the bad-input suite: an empty or over-long user.team_id fell back to the request's
  // team, so a click naming a bogus team counted as the home team's (and an approver's approved).
  it.each([[''], ['T'.repeat(301)], [null], [7], [{ id: 'T0HOME' }]])(
    'refuses a user.team_id of %j instead of taking the home team',
    (teamId) => {
      expect(clickFacts(click({ id: 'U0BOB', team_id: teamId }))).toEqual({ invalid: 'no user' });
    },
  );
});

import { describe, expect, it } from 'vitest';
import { readRejectForm, REASON_BLOCK, REASON_INPUT } from '../../../src/interactions/reject.js';

const real = { runId: 'co-261201-abcdef', channelId: 'C0OPS', messageTs: '1700000000.000100' };

const submission = (metadata: unknown, reason = 'not now') => ({
  type: 'view_submission',
  user: { id: 'U0BOB', team_id: 'T0HOME' },
  view: {
    private_metadata: typeof metadata === 'string' ? metadata : JSON.stringify(metadata),
    state: { values: { [REASON_BLOCK]: { [REASON_INPUT]: { value: reason } } } },
  },
});

describe('readRejectForm', () => {
  it('reads the metadata the bot wrote and the reason', () => {
    expect(readRejectForm(submission(real))).toEqual({
      metadata: real,
      reason: 'not now',
      userId: 'U0BOB',
      userTeamId: 'T0HOME',
    });
  });

  it('asks for a reason when there is none', () => {
    expect(readRejectForm(submission(real, '  \n '))).toEqual({
      errors: { [REASON_BLOCK]: 'Say why, for the record.' },
    });
  });

  // Found by the bad-input suite: any strings passed, so the refusal went to a "channel" such
  // as `<!here>` or 4,000 characters of RTL text, and the submitter was never answered.
  it.each([
    ['a run id that is no run id', { ...real, runId: '../co-1' }],
    ['a channel that is no channel id', { ...real, channelId: '<!here>' }],
    ['a channel in lower case', { ...real, channelId: 'c0ops' }],
    ['a message ts that is no ts', { ...real, messageTs: 'now' }],
    ['no JSON object', 'null'],
    ['no JSON', '{'],
  ])('refuses metadata with %s', (_, metadata) => {
    expect(readRejectForm(submission(metadata))).toEqual({ invalid: 'it names no run' });
  });

  // Found by the bad-input suite: a user id with a lone surrogate could not be encoded into
  // chat.postEphemeral, so the refusal reached nobody.
  it.each([['\ud800U0BOB'], ['u0bob'], [''], ['U0BOB <!here>']])(
    'refuses a submitter id of %j: the answer could not reach them',
    (id) => {
      const form = { ...submission(real), user: { id, team_id: 'T0HOME' } };
      expect(readRejectForm(form)).toEqual({ invalid: 'no user' });
    },
  );
});

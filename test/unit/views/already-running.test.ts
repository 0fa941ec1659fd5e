// The answer to a request whose twin's run has not ended: which run, who asked, where to look.
import { describe, expect, it } from 'vitest';
import type { RunState } from '../../../src/core/run-state.js';
import { alreadyRunningReply, messageLink } from '../../../src/views/already-running.js';

describe('alreadyRunningReply', () => {
  it('links the running run’s thread in Slack’s permalink form', () => {
    expect(messageLink('https://acme.slack.com/', 'C0OPS', '1764590000.123456')).toBe(
      'https://acme.slack.com/archives/C0OPS/p1764590000123456',
    );
    const state = {
      phase: 'running',
      requester: { kind: 'slack', userId: 'U0ALICE', teamId: 'T0' },
    } as Pick<RunState, 'phase' | 'requester'> as RunState;
    const reply = alreadyRunningReply({
      kind: 'cutover',
      cluster: 'cluster-a',
      node: 'blue-1',
      runId: 'co-261201-abc',
      state,
      link: 'https://acme.slack.com/archives/C0OPS/p1',
    });
    expect(reply.text).toBe(
      'A cutover of blue-1 on cluster-a is already running (run co-261201-abc): see the thread https://acme.slack.com/archives/C0OPS/p1.',
    );
    const shown = JSON.stringify(reply.blocks);
    expect(shown).toContain('asked by <@U0ALICE>');
    expect(shown).toContain('<https://acme.slack.com/archives/C0OPS/p1|the thread>');
    expect(shown).toContain('Nothing new was started');
  });

  it('says where the card will be when it is not posted yet, and escapes names', () => {
    const reply = alreadyRunningReply({ kind: 'preflight', cluster: 'a<b>', runId: 'pf-1' });
    expect(reply.text).toContain('its status card is being posted in this channel');
    expect(JSON.stringify(reply.blocks)).toContain('*a&lt;b&gt;*');
  });
});

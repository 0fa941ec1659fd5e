// Snapshots of the approval card in each state, the result reply with its Rollback button and
// the evidence file; each message one Slack accepts.
import { describe, expect, it } from 'vitest';
import type { RunState } from '../../../src/core/run-state.js';
import { ACTION } from '../../../src/interactions/ids.js';
import type { ChatMessage } from '../../../src/ports/chat.js';
import { approvalCard } from '../../../src/views/approval-card.js';
import { evidenceReport, resultReply } from '../../../src/views/run-result-reply.js';
import { checkBlocks } from '../../fakes/slack-limits.js';

function accepted(message: ChatMessage): ChatMessage {
  expect(checkBlocks(message.blocks ?? [])).toBeUndefined();
  expect(message.text.length).toBeGreaterThan(0);
  return message;
}

const settings = { approvers: { users: ['U0BOB'], groups: ['S0SRE'] }, fourEyes: true };
const bob = { kind: 'slack', userId: 'U0BOB', teamId: 'T0HOME' } as const;

const waiting: RunState = {
  id: 'co-261201120000-abcdef',
  kind: 'cutover',
  cluster: 'cluster-a',
  node: 'blue-1',
  requester: { kind: 'slack', userId: 'U0ALICE', teamId: 'T0HOME' },
  options: { autoRollback: true, dryRun: false, channel: 'C0OPS' },
  phase: 'awaiting-approval',
  track: 'forward',
  stepIndex: 4,
  steps: [
    {
      id: 'node-preflight',
      track: 'forward',
      status: 'done',
      attempts: 1,
      note: 'kernel 6.1.0 · nft 1.0.6 · conntrack 2% · 0 warnings, no blockers',
    },
  ],
  planHash: '9f3c2a1',
  plan: {
    hash: '9f3c2a1',
    actions: [
      'set DaemonSet kube-system/kube-proxy updateStrategy to OnDelete (was RollingUpdate)',
      'create ConfigMap kube-system/kube-proxy-nftables (keys config.conf)',
      'label node blue-1 proxy-migrate.io/mode=switching',
    ],
  },
  approvals: [],
  journal: [],
  evidence: [],
  facts: { pool: 'blue', cardTs: '1.1', approvalTs: '1.2' },
  expiresAt: '2026-12-01T12:30:00.000Z',
  createdAt: '2026-12-01T12:00:00.000Z',
  updatedAt: '2026-12-01T12:00:10.000Z',
  history: [],
  version: 5,
};

describe('approval card', () => {
  it('while waiting: who asked, expiry, plan and hash, node pre-flight, approvers, buttons', () => {
    const card = accepted(approvalCard(waiting, settings));
    expect(card).toMatchSnapshot();
    const buttons = JSON.stringify(card.blocks);
    expect(buttons).toContain(ACTION.approve);
    expect(buttons).toContain(ACTION.reject);
    expect(buttons).toContain(`"value":"${waiting.id}"`);
  });

  it('after a decision or an expiry: who, when and why, with no buttons', () => {
    const approved = approvalCard(
      {
        ...waiting,
        phase: 'running',
        approvals: [{ decision: 'approved', by: bob, at: '2026-12-01T12:04:00.000Z' }],
      },
      settings,
    );
    expect(approved.text).toContain('Approved by <@U0BOB> at 12:04 UTC');
    const rejected = accepted(
      approvalCard(
        {
          ...waiting,
          phase: 'done',
          outcome: 'refused',
          approvals: [
            {
              decision: 'rejected',
              by: bob,
              at: '2026-12-01T12:05:00.000Z',
              reason: 'freeze <until> Monday',
            },
          ],
        },
        settings,
      ),
    );
    expect(rejected).toMatchSnapshot();
    const expired = approvalCard(
      { ...waiting, phase: 'done', outcome: 'refused', reason: 'the approval request expired' },
      settings,
    );
    expect(expired.text).toContain('Expired');
    for (const m of [approved, rejected, expired])
      expect(JSON.stringify(m.blocks)).not.toContain(ACTION.approve);
  });
});

describe('result reply', () => {
  const verified: RunState = {
    ...waiting,
    phase: 'done',
    outcome: 'verified',
    reason: 'Cutover verified',
    updatedAt: '2026-12-01T12:06:41.000Z',
    facts: { ...waiting.facts, resultTs: '1.3' },
    evidence: [
      {
        probe: 'nft-table',
        step: 'verify',
        node: 'blue-1',
        argv: ['nft', '-j', 'list', 'table', 'ip', 'kube-proxy'],
        exitCode: 0,
        output: '{"nftables": []}',
        ok: true,
        verdict: 'table ip kube-proxy: 3 services',
        at: '2026-12-01T12:06:30.000Z',
      },
    ],
  };

  it('lists the verdicts and offers the Rollback button behind a confirm dialog', () => {
    const reply = accepted(resultReply(verified));
    expect(reply).toMatchSnapshot();
    expect(JSON.stringify(reply.blocks)).toContain(ACTION.rollback);
    expect(JSON.stringify(reply.blocks)).toContain('"confirm"');
    // A refused or rolled-back cutover offers nothing to undo.
    expect(
      JSON.stringify(resultReply({ ...verified, outcome: 'rolled-back' }).blocks),
    ).not.toContain(ACTION.rollback);
  });

  it('writes every probe’s command and output into the evidence file', () => {
    expect(evidenceReport(verified)).toMatchSnapshot();
  });
});

// What the drift guard posts: the alert (what broke, the repair, a button per drift carrying
// the drift id only) and the short "resolved"; both messages Slack accepts.
import { describe, expect, it } from 'vitest';
import type { Drift } from '../../../src/core/drift.js';
import { ACTION } from '../../../src/interactions/ids.js';
import type { ChatMessage } from '../../../src/ports/chat.js';
import {
  MAX_DRIFTS_SHOWN,
  driftAlertMessage,
  driftResolvedMessage,
} from '../../../src/views/drift-alert.js';
import { checkBlocks } from '../../fakes/slack-limits.js';

function accepted(message: ChatMessage): ChatMessage {
  expect(checkBlocks(message.blocks ?? [])).toBeUndefined();
  expect(message.text.length).toBeGreaterThan(0);
  return message;
}

const strategy: Drift = {
  key: 'original-strategy|DaemonSet kube-system/kube-proxy',
  id: 'dr-0123456789abcdef',
  invariant: 'original-strategy',
  subject: 'DaemonSet kube-system/kube-proxy',
  message:
    'DaemonSet kube-system/kube-proxy is RollingUpdate again, not OnDelete: its next template change restarts kube-proxy on every node',
  repair:
    'Set it back to OnDelete (`kubectl -n kube-system patch ds kube-proxy -p \'{"spec":{"updateStrategy":{"type":"OnDelete"}}}\'`) or let the next cutover do it.',
};
const two: Drift = {
  key: 'two-kube-proxies|blue-1',
  id: 'dr-fedcba9876543210',
  invariant: 'two-kube-proxies',
  subject: 'blue-1',
  message: 'blue-1 runs 2 kube-proxy pods (original and canary): they fight over the node’s rules',
  repair:
    'Fix the original DaemonSet’s NotIn term and delete the original’s pod on blue-1, or roll the node back: `proxy-migrate rollback cluster-a blue-1`.',
};
const at = '2026-11-29T14:02:00.000Z';

const buttons = (m: ChatMessage): unknown[] =>
  (m.blocks ?? []).flatMap((b) =>
    b.type === 'section' && b.accessory !== undefined ? [b.accessory] : [],
  );

describe('drift alert', () => {
  it('names the cluster, what broke and the repair, with a repair button per drift', () => {
    const m = accepted(
      driftAlertMessage({
        cluster: 'cluster-a',
        added: [strategy],
        ongoing: [],
        cleared: [],
        everyMinutes: 10,
        at,
      }),
    );
    expect(m).toMatchSnapshot();
    expect(buttons(m)).toEqual([
      expect.objectContaining({ action_id: ACTION.repairDrift, value: strategy.id }),
    ]);
  });

  it('lists a new drift next to the ones still broken and the ones that hold again', () => {
    const m = accepted(
      driftAlertMessage({
        cluster: 'cluster-a',
        added: [two],
        ongoing: [strategy],
        cleared: [
          {
            key: 'x',
            id: 'dr-1',
            invariant: 'original-affinity',
            subject: 'DaemonSet kube-system/kube-proxy',
          },
        ],
        everyMinutes: 1,
        at,
      }),
    );
    expect(m).toMatchSnapshot();
    expect(buttons(m)).toHaveLength(1);
  });

  it('shows at most ten drifts, as many as fit, and counts the rest, within Slack’s limits', () => {
    const many = Array.from({ length: 40 }, (_, i): Drift => ({
      ...two,
      key: `two-kube-proxies|node-${i}`,
      id: `dr-${String(i).padStart(16, '0')}`,
      subject: `node-${i}`,
      message: `node-${i} runs 2 kube-proxy pods ${'x'.repeat(2_000)}`,
    }));
    const m = accepted(
      driftAlertMessage({
        cluster: 'cluster-a',
        added: many,
        ongoing: [],
        cleared: [],
        everyMinutes: 10,
        at,
      }),
    );
    // Each of these is over 2,000 characters: two fit in one message beside the frame.
    expect(buttons(m)).toHaveLength(2);
    expect(JSON.stringify(m.blocks)).toContain('…and 38 more drifts');
    const short = many.map((d) => ({ ...d, message: d.subject }));
    const tens = accepted(
      driftAlertMessage({
        cluster: 'cluster-a',
        added: short,
        ongoing: short,
        cleared: short,
        everyMinutes: 10,
        at,
      }),
    );
    expect(buttons(tens)).toHaveLength(MAX_DRIFTS_SHOWN);
    expect(JSON.stringify(tens.blocks)).toContain('…and 30 more drifts');
    expect(m.text).toBe('Drift on cluster-a: two-kube-proxies · node-0 and 39 more');
  });
});

describe('drift resolved', () => {
  it('is one short line naming what holds again', () => {
    expect(
      accepted(
        driftResolvedMessage({
          cluster: 'cluster-a',
          cleared: [strategy],
          remaining: [],
          migrationEnded: false,
          at,
        }),
      ),
    ).toMatchSnapshot();
  });

  it('says what is still broken, or that the migration ended', () => {
    const partly = driftResolvedMessage({
      cluster: 'cluster-a',
      cleared: [strategy],
      remaining: [two],
      migrationEnded: false,
      at,
    });
    expect(partly.text).toBe(
      'Drift resolved on cluster-a: original-strategy · DaemonSet kube-system/kube-proxy holds again; 1 drift still broken: two-kube-proxies · blue-1.',
    );
    const ended = driftResolvedMessage({
      cluster: 'cluster-a',
      cleared: [strategy, two],
      remaining: [],
      migrationEnded: true,
      at,
    });
    expect(ended.text).toMatch(/hold again \(no migration is in progress any more\)\.$/);
  });
});

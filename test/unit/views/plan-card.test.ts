// The plan as people see it in Slack: the card in the channel and the diffs in its thread (code
// blocks when short, a .diff file when long), every message one Slack accepts.
import { describe, expect, it } from 'vitest';
import type { OrderedNode } from '../../../src/core/node-order.js';
import type { PlanReport } from '../../../src/core/plan-result.js';
import type { ChatMessage } from '../../../src/ports/chat.js';
import {
  MAX_INLINE_DIFF_LINES,
  condensedOrder,
  planCard,
  planThread,
} from '../../../src/views/plan-card.js';
import { checkBlocks } from '../../fakes/slack-limits.js';
import { eksPlan, kubeadmPlan } from '../../fixtures/plan.js';

const meta = { requestedBy: 'U0ALICE', requestedAt: '2026-11-29T14:02:00.000Z', tookMs: 2_400 };

function accepted(message: ChatMessage): ChatMessage {
  expect(checkBlocks(message.blocks ?? [])).toBeUndefined();
  expect(message.text.length).toBeGreaterThan(0);
  return message;
}

const shown = (message: ChatMessage): string => JSON.stringify(message.blocks);

describe('plan card', () => {
  it('shows hash, node and pool, verdict, numbered actions, dry run, config and the order', () => {
    const card = accepted(planCard(kubeadmPlan, meta));
    expect(card.text).toBe(
      'Plan 74f679d for kubeadm-ipvs, node blue-1: canary allowed, 6 actions, dry run accepted',
    );
    const text = shown(card);
    expect(text).toContain(
      ':clipboard: *Plan `74f679d` · kubeadm-ipvs* · node *blue-1* (pool blue)',
    );
    expect(text).toContain(':white_check_mark: *Canary allowed.*');
    expect(text).toContain('6. label node blue-1 proxy-migrate.io/mode=nftables (was switching)');
    expect(text).toContain('*Dry run:* every write accepted by the API server (dryRun=All)');
    expect(text).toContain('• mode: ipvs → nftables');
    expect(text).toContain('• ipvs.scheduler: rr');
    expect(text).toContain(
      'one canary per pool: blue-1 (blue), green-1 (green), cp-1 (control-plane)',
    );
    expect(text).toContain('legacy-1 by `kernel-version`');
    expect(card).toMatchSnapshot();
  });

  it('says a cutover will be refused where the platform owns kube-proxy, with its commands', () => {
    const card = accepted(planCard(eksPlan, meta));
    expect(card.text).toMatch(/: canary refused, 4 actions, dry run accepted$/);
    const text = shown(card);
    expect(text).toContain(
      ':no_entry: *Canary refused: a cutover of this cluster will be refused.*',
    );
    expect(text).toContain('aws eks update-addon --cluster-name');
    expect(text).toContain('shared objects only');
    expect(card).toMatchSnapshot();
  });

  it('lists every write the dry run refused', () => {
    const refused: PlanReport = {
      ...kubeadmPlan,
      dryRun: ['create DaemonSet kube-system/kube-proxy-nftables: the API server said <forbidden>'],
    };
    const card = accepted(planCard(refused, meta));
    expect(card.text).toMatch(/dry run refused$/);
    expect(shown(card)).toContain(':x: *Dry run refused* (1 write): a cutover would stop here.');
    // User-visible text from the API server is escaped, never Slack markup.
    expect(shown(card)).toContain('said &lt;forbidden&gt;');
  });

  it('condenses a big order and keeps the card within Slack limits', () => {
    const order: OrderedNode[] = Array.from({ length: 3000 }, (_, i) => ({
      node: `node-${String(i).padStart(4, '0')}.example.internal`,
      pool: `pool-${i % 40}`,
      step: i < 40 ? 'canary' : i < 2900 ? 'pool' : 'blocked',
      blockedBy: i < 2900 ? [] : ['kernel-version: kernel 5.4 (< 5.13)', 'nft-version: nft 0.9.3'],
    }));
    const big: PlanReport = { ...kubeadmPlan, node: 'node-0000.example.internal', order };
    const lines = condensedOrder(order);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/, \+32 more$/);
    expect(lines[2]).toContain('blocked (100 nodes)');
    expect(lines[2]).toContain('by `kernel-version`; ');
    accepted(planCard(big, meta));
    const thread = planThread(big);
    expect(thread.orderReplies.length).toBeGreaterThan(1);
    thread.orderReplies.forEach(accepted);
    expect(shown(thread.orderReplies[0]!)).toContain(
      '1. node-0000.example.internal (pool-0) canary',
    );
  });
});

describe('plan thread', () => {
  it('puts long diffs in one .diff file, each object after a line naming it', () => {
    const thread = planThread(kubeadmPlan);
    expect(thread.diffReplies).toEqual([]);
    expect(thread.orderReplies).toEqual([]);
    expect(thread.file).toMatchObject({
      filename: 'plan-kubeadm-ipvs-74f679d.diff',
      title: 'Plan 74f679d · kubeadm-ipvs · diffs (current → planned)',
      comment: expect.stringMatching(
        /^Diffs of plan 74f679d for kubeadm-ipvs: 4 objects, \d+ lines/,
      ),
    });
    const content = thread.file?.content ?? '';
    for (const diff of kubeadmPlan.diffs) {
      expect(content).toContain(`# ${diff.title}\n`);
      expect(content).toContain(diff.diff);
    }
    expect(content.split('\n').length).toBeGreaterThan(MAX_INLINE_DIFF_LINES);
  });

  it('puts short diffs in the thread as code blocks, escaped', () => {
    const [first, second] = kubeadmPlan.diffs;
    const short: PlanReport = {
      ...kubeadmPlan,
      diffs: [
        { title: first!.title, diff: first!.diff },
        { title: second!.title, diff: '' },
        { title: 'an object with <markup>', diff: '-  a: <b>\n+  a: c\n' },
      ],
    };
    const thread = planThread(short);
    expect(thread.file).toBeUndefined();
    expect(thread.diffReplies).toHaveLength(1);
    const reply = accepted(thread.diffReplies[0]!);
    const text = shown(reply);
    expect(text).toContain('```--- kube-system/kube-proxy (current)');
    expect(text).toContain('_(no change)_');
    expect(text).toContain('an object with &lt;markup&gt;');
    expect(text).toContain('-  a: &lt;b&gt;');
    expect(reply).toMatchSnapshot();
  });
});

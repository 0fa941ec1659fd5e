// `status` as a Slack card: nodes by the mode they report, the nodes a migration touched, runs
// in flight, the lock and the invariants with their repairs; every message one Slack accepts.
import { describe, expect, it } from 'vitest';
import type { ClusterStatus, NodeStatus } from '../../../src/core/cluster-status.js';
import type { ChatMessage } from '../../../src/ports/chat.js';
import { statusMessages } from '../../../src/views/status-card.js';
import { checkBlocks } from '../../fakes/slack-limits.js';

const meta = { requestedBy: 'U0ALICE', requestedAt: '2026-11-29T14:02:00.000Z', probed: true };

function accepted(message: ChatMessage): ChatMessage {
  expect(checkBlocks(message.blocks ?? [])).toBeUndefined();
  expect(message.text.length).toBeGreaterThan(0);
  return message;
}

const shown = (messages: readonly ChatMessage[]): string =>
  JSON.stringify(messages.map((m) => m.blocks));

function node(name: string, pool: string, over: Partial<NodeStatus> = {}): NodeStatus {
  return {
    node: name,
    pool,
    mode: 'ipvs',
    label: undefined,
    owners: ['original'],
    ready: true,
    lastResult: undefined,
    ...over,
  };
}

function status(nodes: NodeStatus[], over: Partial<ClusterStatus> = {}): ClusterStatus {
  const byMode: Record<string, number> = {};
  for (const n of nodes) byMode[n.mode] = (byMode[n.mode] ?? 0) + 1;
  return {
    cluster: 'cluster-a',
    inProgress: false,
    nodes,
    byMode,
    activeRuns: [],
    lock: undefined,
    violations: [],
    ...over,
  };
}

describe('status card', () => {
  it('before a migration: every node on ipvs, no runs, lock free, invariants hold', () => {
    const messages = statusMessages(
      status([node('blue-1', 'blue'), node('blue-2', 'blue'), node('legacy-1', 'legacy')]),
      meta,
    );
    expect(messages).toHaveLength(1);
    const card = accepted(messages[0]!);
    expect(card.text).toBe('Status of cluster-a: 3 nodes (3 ipvs), invariants hold');
    const text = shown(messages);
    expect(text).toContain(
      ':bar_chart: *Status · cluster-a* · 3 nodes (3 ipvs) · no migration in progress',
    );
    expect(text).toContain(':large_blue_circle: *ipvs* · 3: blue-1, blue-2, legacy-1');
    expect(text).toContain('*Runs in flight:* none');
    expect(text).toContain(':unlock: *Cluster lock:* free');
    expect(text).toContain(':white_check_mark: *Invariants:* all hold');
    expect(text).not.toContain('Nodes to look at');
    expect(card).toMatchSnapshot();
  });

  it('during a migration: labelled nodes, the run and lock holder, broken invariants with repairs', () => {
    const s = status(
      [
        node('blue-1', 'blue', {
          mode: 'nftables',
          label: 'nftables',
          owners: ['canary'],
          lastResult: 'cutover verified co-261129140200-abc123',
        }),
        node('blue-2', 'blue', { mode: 'unknown', label: 'switching', owners: [], ready: false }),
        node('green-1', 'green', { owners: ['original', 'canary'] }),
        node('green-2', 'green'),
      ],
      {
        inProgress: true,
        activeRuns: [
          { id: 'co-261129140500-def456', kind: 'cutover', node: 'blue-2', phase: 'running' },
        ],
        lock: { holder: 'co-261129140500-def456', expiresAt: '2026-11-29T14:06:30.000Z' },
        violations: [
          {
            invariant: 'two-kube-proxies',
            subject: 'green-1',
            message:
              "green-1 runs 2 kube-proxy pods (original and canary): they fight over the node's rules",
            repair:
              "Fix the original DaemonSet's NotIn term and delete the original's pod on green-1, or roll the node back: `proxy-migrate rollback cluster-a green-1`.",
          },
        ],
      },
    );
    const messages = statusMessages(s, meta);
    messages.forEach(accepted);
    const text = shown(messages);
    expect(messages[0]!.text).toBe(
      'Status of cluster-a: 4 nodes (1 nftables, 1 unknown, 2 ipvs), 1 invariants broken',
    );
    expect(text).toContain('· migration in progress · :x: 1 invariant broken');
    expect(text).toContain(
      '• *blue-1* (blue) · mode nftables · kube-proxy canary · label `nftables` · last cutover verified co-261129140200-abc123',
    );
    expect(text).toContain(
      '• *blue-2* (blue) · mode unknown · no kube-proxy · not Ready · label `switching`',
    );
    expect(text).toContain('kube-proxy original + canary');
    expect(text).not.toContain('*green-2*');
    expect(text).toContain('• `co-261129140500-def456` cutover blue-2 · running');
    expect(text).toContain(
      ':lock: *Cluster lock:* held by `co-261129140500-def456` until 14:06 UTC',
    );
    expect(text).toContain('*`two-kube-proxies`* · green-1');
    expect(text).toContain(':wrench: Fix the original DaemonSet');
    expect(messages).toMatchSnapshot();
  });

  it('a big cluster stays within Slack limits, the rest in the thread', () => {
    const nodes = Array.from({ length: 5000 }, (_, i) =>
      node(`ip-10-0-${Math.floor(i / 250)}-${i % 250}.ec2.internal`, `ng-${i % 7}`, {
        ...(i % 3 === 0 ? { mode: 'nftables', label: 'nftables', owners: ['canary'] } : {}),
      }),
    );
    const violations = Array.from({ length: 60 }, (_, i) => ({
      invariant: 'two-kube-proxies',
      subject: `node-${i}`,
      message: `node-${i} runs 2 kube-proxy pods (original and canary): they fight over the node's rules`,
      repair: 'x'.repeat(400),
    }));
    const messages = statusMessages(status(nodes, { inProgress: true, violations }), {
      ...meta,
      probed: false,
    });
    expect(messages.length).toBeGreaterThan(1);
    messages.forEach(accepted);
    const text = shown(messages);
    expect(text).toContain(', +3321 more');
    expect(text).toContain('… and 1647 more');
    expect(text).toContain('modes not read (no probe): unknown');
  });
});

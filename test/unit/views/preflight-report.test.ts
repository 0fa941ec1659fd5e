// The findings-based pre-flight report as people see it: Slack card and thread, Markdown, terminal.
import { describe, expect, it } from 'vitest';
import { overview } from '../../../src/core/cluster-overview.js';
import { finding, type Finding } from '../../../src/core/findings.js';
import { buildReport, groupFindings, runChecks } from '../../../src/core/report.js';
import type { ChatMessage } from '../../../src/ports/chat.js';
import {
  MAX_REPORT_REPLIES,
  reportCard,
  reportMarkdown,
  reportThread,
} from '../../../src/views/preflight-report.js';
import { reportText } from '../../../src/views/report-text.js';
import { checkBlocks } from '../../fakes/slack-limits.js';
import { node, snapshotOf } from '../../fixtures/kube.js';

const meta = {
  runId: 'pf-261129140200-abc123',
  requestedBy: 'U0ALICE',
  requestedAt: '2026-11-29T14:02:00.000Z',
};

const snapshot = snapshotOf({
  nodes: [
    node({ name: 'blue-1', labels: { 'node-pool': 'blue' } }),
    node({ name: 'legacy-1', labels: { 'node-pool': 'legacy' }, kernel: '5.4.0-80-generic' }),
    node({ name: 'legacy-2', labels: { 'node-pool': 'legacy' }, kernel: '5.4.0-80-generic' }),
  ],
});
const ov = overview(snapshot, 'node-pool');

const checks = [
  {
    id: 'kernel-version',
    title: 'Every node runs kernel 5.13 or newer',
    run: (): Finding[] => [
      finding({
        check: 'kernel-version',
        severity: 'block',
        scope: { kind: 'pool', name: 'legacy' },
        subjects: ['legacy-1', 'legacy-2'],
        title: '2 of 2 nodes on kernel 5.4 (< 5.13)',
        detail:
          'kube-proxy cleans up IPVS before it checks the kernel: these nodes would lose Service routing.',
        remedy: 'Upgrade the kernel to 5.13 or newer before migrating this pool.',
        commands: [
          'kubectl get nodes -o custom-columns=NAME:.metadata.name,KERNEL:.status.nodeInfo.kernelVersion',
        ],
      }),
    ],
  },
  {
    id: 'mode-explicit',
    title: 'mode is set explicitly',
    run: (): Finding[] => [
      finding({
        check: 'mode-explicit',
        severity: 'warn',
        scope: { kind: 'cluster', name: 'cluster-a' },
        title: 'mode is blank <in> config.conf',
        remedy: 'Set mode: "ipvs" now.',
        commands: ['mode: "ipvs"'],
      }),
    ],
  },
  { id: 'service-scale', title: 'Fewer than 1,000 Services', run: (): Finding[] => [] },
  {
    id: 'broken',
    title: 'A check with a bug',
    run: (): Finding[] => {
      throw new Error('cannot read properties of undefined');
    },
  },
];

function accepted(message: ChatMessage): void {
  expect(checkBlocks(message.blocks ?? [])).toBeUndefined();
}

/** Every node probed, none failed: the report is complete. */
const everyNode = {
  coverage: { mode: 'all' as const, nodes: ov.nodes.length, probed: ov.nodes.length, pools: [] },
  facts: [],
};

describe('the pre-flight report', () => {
  const findings = runChecks(checks, undefined, 'cluster-a');
  const report = buildReport(
    ov,
    { kind: 'kubeadm', name: 'kubeadm' },
    findings,
    '2026-11-29T14:02:11.000Z',
    everyNode,
  );

  it('runs every check, adds a pass for quiet ones and turns a crashing check into a warning', () => {
    expect(report.summary).toEqual({ block: 1, warn: 2, info: 0, pass: 1 });
    expect(findings.map((f) => [f.check, f.severity])).toEqual([
      ['kernel-version', 'block'],
      ['broken', 'warn'],
      ['mode-explicit', 'warn'],
      ['service-scale', 'pass'],
    ]);
    expect(findings.find((f) => f.check === 'broken')?.detail).toBe(
      'cannot read properties of undefined',
    );
    expect(
      runChecks(checks, undefined, 'cluster-a', new Set(['kernel-version'])).map((f) => f.check),
    ).not.toContain('kernel-version');
  });

  it('has the public JSON shape', () => {
    expect(JSON.parse(JSON.stringify(report))).toMatchObject({
      cluster: 'cluster-a',
      generatedAt: '2026-11-29T14:02:11.000Z',
      kubernetesVersion: 'v1.33.4',
      platform: 'kubeadm',
      currentMode: 'ipvs',
      summary: { block: 1, warn: 2, info: 0, pass: 1 },
      pools: [
        { name: 'blue', nodes: ['blue-1'] },
        { name: 'legacy', nodes: ['legacy-1', 'legacy-2'] },
      ],
      findings: expect.arrayContaining([
        {
          check: 'kernel-version',
          severity: 'block',
          scope: { kind: 'pool', name: 'legacy' },
          subjects: ['legacy-1', 'legacy-2'],
          title: '2 of 2 nodes on kernel 5.4 (< 5.13)',
          detail: expect.any(String),
          remedy: expect.any(String),
          commands: [expect.stringContaining('kubectl get nodes')],
        },
      ]),
    });
    expect(groupFindings(report).pools.map((p) => [p.name, p.findings.length])).toEqual([
      ['blue', 0],
      ['legacy', 1],
    ]);
  });

  it('renders the Slack card and thread inside Slack’s limits', () => {
    const card = reportCard(report, ov, meta);
    accepted(card);
    expect(card).toMatchSnapshot();
    const thread = reportThread(report, ov);
    expect(thread.file).toBeUndefined();
    thread.replies.forEach(accepted);
    expect(thread.replies).toMatchSnapshot();
  });

  it('gives each check its explanation once however many pools it is found in', () => {
    const explanation = 'Why this matters, at length. '.repeat(20);
    const perPool = ['blue', 'legacy'].map((pool) =>
      finding({
        check: 'conntrack-liberal',
        severity: 'warn',
        scope: { kind: 'pool', name: pool },
        title: `pool ${pool} runs kernel 5.15`,
        detail: `${explanation}Evidence: ${pool}-1 invalid=${pool.length}.`,
        remedy: 'Set conntrack.tcpBeLiberal. Then watch the invalid counters on the first nodes.',
        commands: ['conntrack:\n  tcpBeLiberal: true'],
      }),
    );
    const thread = reportThread(
      buildReport(ov, { kind: 'kubeadm', name: 'kubeadm' }, perPool, '2026-11-29T14:02:11.000Z'),
      ov,
    );
    const text = JSON.stringify(thread.replies);
    expect(text.split('Why this matters').length - 1).toBe(20);
    expect(text.split('tcpBeLiberal: true').length - 1).toBe(1);
    // What differs by pool (the evidence) is still there, once per pool.
    expect(text).toContain('_pool blue:_ Evidence: blue-1 invalid=4.');
    expect(text).toContain('_pool legacy:_ Evidence: legacy-1 invalid=6.');
    // Each pool still gets its own short line: severity, check, scope, what, the remedy's first sentence.
    for (const pool of ['blue', 'legacy'])
      expect(text).toContain(
        `:warning: *conntrack-liberal* · pool ${pool}: pool ${pool} runs kernel 5.15 → Set conntrack.tcpBeLiberal.`,
      );
    // Every reply says in its notification text what it holds.
    const texts = thread.replies.map((r) => r.text);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts).toContain('Pre-flight cluster-a: details for conntrack-liberal');
    thread.replies.forEach(accepted);
  });

  it('moves a report too long for the thread into a Markdown file, keeping what needs action', () => {
    const many = Array.from({ length: 400 }, (_, i) =>
      finding({
        check: `check-${i}`,
        severity: i % 2 === 0 ? 'warn' : 'info',
        scope: { kind: 'pool', name: 'legacy' },
        title: `finding ${i} ${'x'.repeat(200)}`,
        detail: 'd'.repeat(500),
        remedy: 'r',
        commands: ['c'.repeat(300)],
      }),
    );
    const big = buildReport(
      ov,
      { kind: 'kubeadm', name: 'kubeadm' },
      many,
      '2026-11-29T14:02:11.000Z',
    );
    const thread = reportThread(big, ov);
    expect(thread.replies.length).toBeLessThanOrEqual(MAX_REPORT_REPLIES);
    thread.replies.forEach(accepted);
    expect(thread.file?.filename).toBe('preflight-cluster-a.md');
    expect(thread.file?.content).toContain('### check-399\n\n- **INFO** pool legacy: finding 399');
    accepted(reportCard(big, ov, meta));
  });

  it('renders Markdown and a terminal table', () => {
    expect(reportMarkdown(report, ov)).toMatchSnapshot();
    const text = reportText(report, ov, { colour: false });
    expect(text).toMatchSnapshot();
    expect(text).not.toContain('\u001b[');
    expect(reportText(report, ov, { colour: true })).toContain('\u001b[31mBLOCK\u001b[39m');
  });
});

/**
 * What every Slack fault case checks, whatever the fault: the person learns how the run ended,
 * no post is made twice, and the cluster work (the listing and one probe pod per node) ran once.
 */
import { expect } from 'vitest';
import { resourceFor } from '@proxy-migrate/twin';
import { eventually } from '@proxy-migrate/twin/testing';
import { probePodName } from '../../src/adapters/kubernetes/probe-pod.js';
import type { RunState } from '../../src/core/run-state.js';
import type { FakeMessage } from '../fakes/fake-slack.js';
import type { BotHarness } from './bot-harness.js';

/** Where the fake puts the bot's direct messages with `user` (conversations.open). */
export const dmOf = (user: string): string => `D${user}`;

/** cluster-any takes commands in any channel, so each case gets a channel of its own. */
export const ANY_CHANNEL_CLUSTER = `  - name: cluster-any
    kubeconfig: ./kubeconfig.yaml
    context: kubeadm-ipvs
`;

export const topLevel = (h: BotHarness, channel: string): FakeMessage[] =>
  h.fake.messages.filter((m) => m.channel === channel && m.thread_ts === undefined);

export const inThread = (h: BotHarness, channel: string, ts: string): FakeMessage[] =>
  h.fake.messages.filter((m) => m.channel === channel && m.thread_ts === ts);

/** Sends `/proxy-migrate preflight cluster-any` in `channel`; resolves to the run id. */
export async function startPreflight(
  h: BotHarness,
  channel: string,
  responseId: string,
  userId = 'U0ALICE',
): Promise<string> {
  const ack = await h.command('preflight cluster-any', { channelId: channel, responseId, userId });
  expect(ack.status).toBe(200);
  return eventually('the run of this command', async () => {
    const runs = await h.bot.runs.store.list({ cluster: 'cluster-any' });
    return runs.find((r) => r.options.channel === channel)?.id;
  });
}

export async function finished(
  h: BotHarness,
  runId: string,
  timeoutMs = 60_000,
): Promise<RunState> {
  return eventually(
    `run ${runId} to end`,
    async () => {
      const run = await h.bot.runs.store.get(runId);
      return run?.phase === 'done' ? run : undefined;
    },
    timeoutMs,
  );
}

/** Names of the pods created in the twin from now on (probe pods included), in order. */
export function watchPodsCreated(h: BotHarness): string[] {
  const created: string[] = [];
  h.twin.store.subscribe((event) => {
    if (event.type === 'ADDED' && event.resource.plural === 'pods') {
      created.push(event.object.metadata.name ?? '');
    }
  });
  return created;
}

/**
 * The cluster was read once: the gather step ran once and each node got exactly one probe pod
 * (a second attempt would create the next generation's pod, or the same name again).
 */
export function expectClusterWorkOnce(h: BotHarness, run: RunState, podsCreated: string[]): void {
  expect(run.steps.find((s) => s.id === 'gather')).toMatchObject({ status: 'done', attempts: 1 });
  const nodes = h.twin.store
    .list(resourceFor('nodes'))
    .items.map((n) => n.metadata.name ?? '')
    .filter((name) => name !== '');
  expect(nodes.length).toBeGreaterThan(0);
  for (const node of nodes) {
    const first = podsCreated.filter((name) => name === probePodName(run.id, node));
    const again = podsCreated.filter((name) => name === probePodName(run.id, node, 1));
    expect([first.length, again.length], `probe pods for ${node}`).toEqual([1, 0]);
  }
}

/** No keyed post twice (the metadata key Slack keeps), and no thread with a reply twice. */
export function expectNoPostTwice(h: BotHarness): void {
  const keys = h.fake.messages
    .map((m) => (m.metadata?.['event_payload'] as { key?: unknown } | undefined)?.key)
    .filter((k): k is string => typeof k === 'string');
  expect(keys.length).toBeGreaterThan(0);
  expect(new Set(keys).size, `duplicate keys among ${keys.join(', ')}`).toBe(keys.length);
  const threads = new Map<string, string[]>();
  for (const m of h.fake.messages) {
    if (m.thread_ts === undefined) continue;
    const place = `${m.channel}/${m.thread_ts}`;
    threads.set(place, [...(threads.get(place) ?? []), m.text]);
  }
  for (const [place, texts] of threads) {
    expect(new Set(texts).size, `a reply posted twice in ${place}`).toBe(texts.length);
  }
}

/** Calls the bot made to Slack for `channel` (as `channel` or `channel_id`). */
export function callsFor(h: BotHarness, channel: string, method?: string): number {
  return h.fake.calls.filter(
    (c) =>
      (method === undefined || c.method === method) &&
      (c.args['channel'] === channel || c.args['channel_id'] === channel),
  ).length;
}

/** The counter's value in the bot's /metrics text for exactly these labels (0 when absent). */
export async function metricValue(
  h: BotHarness,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const text = await (await fetch(`${h.baseUrl}/metrics`)).text();
  const wanted = Object.entries(labels);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf('}'));
    const found = new Map<string, string>(
      [...inside.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    if (wanted.every(([k, v]) => found.get(k) === v))
      return Number(line.slice(line.indexOf('}') + 1));
  }
  return 0;
}

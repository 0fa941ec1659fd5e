// Redis going away under a running bot (a private redis-server, never the shared one): slash
// commands answered QUEUE_UNAVAILABLE without a reconnect wait, readiness red then green by
// itself, /metrics still answering, and the bot working again once Redis is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCER_COMMAND_TIMEOUT_MS } from '../../../src/adapters/redis.js';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.js';

interface Readiness {
  ready: boolean;
  checks: Record<string, string>;
}

async function readiness(h: BotHarness): Promise<{ status: number; body: Readiness }> {
  const response = await fetch(`${h.baseUrl}/readyz`);
  return { status: response.status, body: (await response.json()) as Readiness };
}

/** Sends a pre-flight and resolves to its ephemeral answer and how long it took to arrive. */
async function preflight(h: BotHarness, id: string): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const ack = await h.command('preflight cluster-a', { responseId: id });
  expect(ack.status).toBe(200);
  const reply = await h.fake.waitFor((f) => f.responses.find((r) => r.id === id), 15_000, id);
  expect(reply.body).toMatchObject({ response_type: 'ephemeral' });
  return { text: JSON.stringify(reply.body), ms: performance.now() - started };
}

async function eventually<T>(what: string, ms: number, read: () => Promise<T | undefined>) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the bot while Redis is down', () => {
  let redis: PrivateRedis;
  let h: BotHarness;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    h = await startHarness({ redisUrl: redis.url });
  }, 30_000);
  afterAll(async () => {
    await h.stop();
    await redis.close();
  });

  it('answers commands QUEUE_UNAVAILABLE with the remedy at once, readiness red, then green and working by itself', async () => {
    // Up: ready, and a scrape has read the queue's counts once.
    expect((await readiness(h)).status).toBe(200);
    expect(await (await fetch(`${h.baseUrl}/metrics`)).text()).toMatch(/bullmq_job_count/);

    await redis.stop('SIGKILL');
    const down = await readiness(h);
    expect(down.status).toBe(503);
    expect(down.body.checks.redis).toMatch(/^unreachable: connection /);
    expect(down.body.checks.slack).toBe('ok');

    // No reconnect loop or offline queue between the person and the answer.
    const refused = await preflight(h, 'down1');
    expect(refused.text).toContain('QUEUE_UNAVAILABLE');
    expect(refused.text).toContain('nothing was started');
    expect(refused.text).toContain('check Redis (REDIS_URL)');
    expect(refused.ms).toBeLessThan(PRODUCER_COMMAND_TIMEOUT_MS);

    // /metrics answers: process metrics always, the queue's counts as last read.
    const metrics = await fetch(`${h.baseUrl}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toMatch(/bullmq_job_count/);

    await redis.start();
    await eventually('readiness green', 15_000, async () =>
      (await readiness(h)).status === 200 ? true : undefined,
    );
    const queued = await preflight(h, 'up1');
    expect(queued.text).toContain('Pre-flight for *cluster-a* queued');
    const runId = /run (pf-[a-z0-9-]+)/.exec(queued.text)?.[1];
    expect(runId).toBeDefined();
    const run = await h.bot.runs.waitFor(runId ?? '', 30_000);
    expect(run.outcome).toBe('verified');
  }, 60_000);

  it('answers within the command timeout when Redis hangs (connections open, nothing answered)', async () => {
    redis.freeze();
    try {
      const hung = await preflight(h, 'hung1');
      expect(hung.text).toContain('QUEUE_UNAVAILABLE');
      // The replay check's own deadline (500 ms) comes before the command's.
      expect(hung.ms).toBeLessThan(PRODUCER_COMMAND_TIMEOUT_MS + 1_500);
      const down = await readiness(h);
      expect(down.status).toBe(503);
      expect(down.body.checks.redis).toMatch(/^unreachable/);
      const started = performance.now();
      const metrics = await fetch(`${h.baseUrl}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('process_cpu_seconds_total');
      expect(performance.now() - started).toBeLessThan(PRODUCER_COMMAND_TIMEOUT_MS);
    } finally {
      redis.thaw();
    }
    await eventually('readiness green', 15_000, async () =>
      (await readiness(h)).status === 200 ? true : undefined,
    );
  }, 30_000);
});

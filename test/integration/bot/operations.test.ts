// Health, readiness, metrics and graceful shutdown of the bot process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDirectory, ClusterPort } from '../../../src/ports/cluster.js';
import { KubeClusterDirectory } from '../../../src/adapters/kubernetes/directory.js';
import { Redis } from 'ioredis';
import { RedisRunStore } from '../../../src/adapters/run-store/redis.js';
import { startBot, type RunningProcess } from '../../../src/cli/runtime.js';
import { REDIS_URL } from '../../helpers/redis.js';
import { startHarness, type BotHarness } from '../../helpers/bot-harness.js';
import { eventually } from '@proxy-migrate/twin/testing';

describe('health, readiness and metrics', () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('serves /healthz and /readyz with the checks it made', async () => {
    const health = await fetch(`${h.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${h.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { redis: 'ok', slack: 'ok' } });
  });

  it('exports command counters, ack latency and the queue’s own metrics', async () => {
    await h.command('help');
    await h.command('bogus');
    // A command is counted when its verb has finished, which may be just after its ack (the work
    // after an ack yields to other requests first): read until it is, within a deadline.
    let text = '';
    for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
      const response = await fetch(`${h.baseUrl}/metrics`);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      text = await response.text();
      if (
        text.includes('verb="unknown",outcome="rejected"} 1') &&
        text.includes('verb="help",outcome="accepted"} 1')
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(text).toContain('proxy_migrate_slack_commands_total{verb="help",outcome="accepted"} 1');
    expect(text).toContain(
      'proxy_migrate_slack_commands_total{verb="unknown",outcome="rejected"} 1',
    );
    expect(text).toMatch(/proxy_migrate_slack_ack_seconds_count\{verb="help"\} 1/);
    expect(text).toMatch(/bullmq_job_count\{queue="runs"/);
    // Stock process metrics keep their stock names, so stock dashboards find them.
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).not.toContain('proxy_migrate_process_');
  });

  it('answers 404 for unknown paths and does not route them to Slack', async () => {
    expect((await fetch(`${h.baseUrl}/nope`)).status).toBe(404);
  });
});

describe('readiness without Redis', () => {
  it('reports 503 with the reason while Redis is unreachable, and still stops', async () => {
    const h = await startHarness({
      env: { REDIS_URL: 'redis://127.0.0.1:1', SHUTDOWN_GRACE_SECONDS: '1' },
    });
    try {
      const ready = await fetch(`${h.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { ready: boolean; checks: Record<string, string> };
      expect(body.ready).toBe(false);
      expect(body.checks.redis).toMatch(/^unreachable/);
      expect(body.checks.slack).toBe('ok');
      // A command that needs the queue says so instead of failing silently.
      const ack = await h.command('preflight cluster-a', { responseId: 'noredis' });
      expect(ack.status).toBe(200);
      const reply = await h.fake.waitFor((f) => f.responses.find((r) => r.id === 'noredis'));
      expect(JSON.stringify(reply.body)).toContain('QUEUE_UNAVAILABLE');
    } finally {
      await h.stop();
    }
  });
});

/** A real cluster directory whose node listing takes a while, to have a job in flight. */
function slowNodes(inner: ClusterDirectory, delayMs: number): ClusterDirectory {
  return {
    get: (name) => {
      const port = inner.get(name);
      // The real port with one method slowed down; everything else is inherited unchanged.
      const slow = Object.create(port) as ClusterPort;
      slow.listNodes = async (progress) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return port.listNodes(progress);
      };
      return slow;
    },
    nodeShell: (cluster, runId) => inner.nodeShell(cluster, runId),
    collectProbePods: (cluster, keep) => inner.collectProbePods(cluster, keep),
  };
}

describe('graceful shutdown', () => {
  it('lets the step in flight finish, and the next process carries the run to its end', async () => {
    let directory: ClusterDirectory | undefined;
    // The harness creates the config the directory needs, so build it on first use.
    const lazy = (): ClusterDirectory =>
      (directory ??= slowNodes(new KubeClusterDirectory(h.config, h.log.logger), 1_500));
    const overrides = {
      clusters: {
        get: (name: string) => lazy().get(name),
        nodeShell: (cluster: string, runId: string) => lazy().nodeShell(cluster, runId),
        collectProbePods: (cluster: string, keep: (runId: string) => Promise<boolean>) =>
          lazy().collectProbePods(cluster, keep),
      },
    };
    const h = await startHarness({ overrides });
    let stopped = false;
    let next: RunningProcess | undefined;
    try {
      await h.command('preflight cluster-a');
      const card = await h.fake.waitFor((f) =>
        f.messages.find((m) => m.text.startsWith('Pre-flight for cluster-a')),
      );
      const id = await eventually('the cluster read to be in flight', async () => {
        const [run] = await h.bot.runs.store.list({ cluster: 'cluster-a' });
        return run?.steps.find((s) => s.id === 'gather')?.status === 'running' ? run.id : undefined;
      });
      const stopping = h.bot.stop().then(() => {
        stopped = true;
      });
      // Stopping closes the listener at once: the load balancer sees no new connections.
      await expect(fetch(`${h.baseUrl}/readyz`)).rejects.toThrow();
      await stopping;
      await expect(fetch(`${h.baseUrl}/healthz`)).rejects.toThrow();
      // The cluster read finished within the grace period and was saved; nothing was cut off.
      const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const run = await new RedisRunStore(redis, h.config.queuePrefix).get(id);
      redis.disconnect();
      expect(run?.steps.find((s) => s.id === 'gather')?.status).toBe('done');
      expect(run?.phase).toBe('running');

      // The next process (a restarted pod, another replica) takes the queued step and finishes
      // the run: the same card.
      next = await startBot(h.config, h.log.logger, {
        host: '127.0.0.1',
        webClientOptions: { retryConfig: { retries: 0 } },
        ...overrides,
      });
      const ended = await next.runs.waitFor(run!.id, 20_000);
      expect(ended.outcome).toBe('verified');
      const final = h.fake.findMessage(card.channel, card.ts);
      expect(final?.text).toMatch(
        /^Pre-flight cluster-a: \d+ blockers, \d+ warnings \(v1.33.4, mode ipvs, 6 nodes\)/,
      );
      expect(h.fake.messages.filter((m) => m.thread_ts === undefined)).toHaveLength(1);
      // The cluster was read once, by the first process.
      expect(ended.steps.find((s) => s.id === 'gather')?.attempts).toBe(1);
    } finally {
      await next?.stop();
      if (!stopped) await h.bot.stop();
      await h.stop().catch(() => undefined);
    }
  });
});

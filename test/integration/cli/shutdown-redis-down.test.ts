// SIGTERM to a real `proxy-migrate bot` process whose Redis (a private redis-server) has gone
// away while a step is in flight: the process does not sit out its grace period for a step that
// can no longer save anything; it hands the step back and exits.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFor, startTwin, type Twin } from '@proxy-migrate/twin';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack.js';
import { postSigned, slashCommandBody } from '../../fakes/slack-signing.js';
import { SIGNING_SECRET, botEnv } from '../../helpers/bot-harness.js';
import { startPrivateRedis, type PrivateRedis } from '../../helpers/redis-server.js';
import { uniquePrefix } from '../../helpers/redis.js';

const ENTRY = join(import.meta.dirname, '../../../src/main.ts');
const GRACE_SECONDS = 30;

async function until<T>(what: string, ms: number, read: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('SIGTERM with Redis down', () => {
  let fake: FakeSlack;
  let twin: Twin;
  let redis: PrivateRedis;
  let dir: string;

  beforeAll(async () => {
    fake = await startFakeSlack();
    // Probe pods take long to start, so the pre-flight's probe step is in flight at SIGTERM.
    twin = await startTwin({ scenario: 'kubeadm-ipvs', timings: { podStartSeconds: 60 } });
    redis = await startPrivateRedis();
    dir = await mkdtemp(join(tmpdir(), 'pm-sigterm-'));
    await twin.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
    await writeFile(
      join(dir, 'clusters.yaml'),
      `clusters:\n  - name: cluster-a\n    kubeconfig: ./kubeconfig.yaml\n    context: ${twin.name}\n    channels: [C0OPS]\n`,
    );
  }, 30_000);
  afterAll(async () => {
    await redis.close();
    await twin.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('exits well before the grace period, handing the step in flight back', async () => {
    const env = {
      ...botEnv(fake, join(dir, 'clusters.yaml'), uniquePrefix('sigterm')),
      REDIS_URL: redis.url,
      SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
    };
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'bot'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    try {
      const port = await until('the bot to start', 20_000, () => {
        const line = out.split('\n').find((l) => l.includes('"msg":"bot started"'));
        return line === undefined ? undefined : (JSON.parse(line) as { port: number }).port;
      });
      const body = slashCommandBody({
        text: 'preflight cluster-a',
        response_url: fake.responseUrl('pf'),
        user_id: 'U0ALICE',
        channel_id: 'C0OPS',
      });
      const ack = await postSigned(`http://127.0.0.1:${port}/slack/events`, body, {
        secret: SIGNING_SECRET,
      });
      expect(ack.status).toBe(200);
      // The step is in flight once its probe pods exist (they will not start for a minute).
      await until('probe pods', 20_000, () => {
        const pods = twin.store.list(resourceFor('pods'), {
          namespace: 'proxy-migrate-probes',
        }).items;
        const probes = pods.filter((p) => p.metadata.name?.startsWith('proxy-migrate-probe-'));
        return probes.length > 0 ? probes : undefined;
      });
      await redis.stop('SIGKILL');
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    const started = performance.now();
    child.kill('SIGTERM');
    expect(await exited, out).toBe(0);
    const ms = performance.now() - started;
    expect(out).toContain('Redis is down: no step in flight can save its progress');
    expect(out).toContain('"msg":"stopped"');
    // The grace period is for steps that can still finish; this one could not.
    expect(ms).toBeLessThan((GRACE_SECONDS * 1_000) / 2);
  }, 60_000);
});

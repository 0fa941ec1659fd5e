// The `proxy-migrate` binary as an operator runs it: real processes, real signals.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { startFakeSlack, type FakeSlack } from '../../fakes/fake-slack.js';
import { postSigned, slashCommandBody } from '../../fakes/slack-signing.js';
import { SIGNING_SECRET, botEnv } from '../../helpers/bot-harness.js';
import { dropPrefix, uniquePrefix } from '../../helpers/redis.js';

const ENTRY = join(import.meta.dirname, '../../../src/main.ts');

interface Running {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function portFromLog(proc: Running, message: string): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    for (const line of proc.stdout().split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === message && entry.port !== undefined) return entry.port;
    }
    if (proc.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no "${message}" line; stdout:\n${proc.stdout()}\nstderr:\n${proc.stderr()}`);
}

describe('proxy-migrate processes', () => {
  let fake: FakeSlack;
  let twin: Twin;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    fake = await startFakeSlack();
    twin = await startTwin({ scenario: 'kubeadm-ipvs' });
    dir = await mkdtemp(join(tmpdir(), 'pm-cli-'));
    await twin.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
    await writeFile(
      join(dir, 'clusters.yaml'),
      // channels restrict Slack, never a terminal run; probe.concurrency reaches the terminal.
      `clusters:\n  - name: cluster-a\n    kubeconfig: ./kubeconfig.yaml\n    context: ${twin.name}\n    channels: [C0OPS]\n    probe: { concurrency: 2 }\n`,
    );
    env = botEnv(fake, join(dir, 'clusters.yaml'), uniquePrefix('cli'));
  });
  afterAll(async () => {
    await dropPrefix(env.QUEUE_PREFIX!);
    await twin.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints usage with every subcommand', async () => {
    const proc = run(['--help'], {});
    expect(await proc.exited).toBe(0);
    expect(proc.stdout()).toMatch(/Usage: proxy-migrate <command>/);
    expect(proc.stdout()).toMatch(/\n {2}preflight +check a cluster/);
    expect(proc.stdout()).toMatch(/\n {2}bot +run the Slack bot/);
    expect(proc.stdout()).toMatch(/\n {2}worker +run job workers only/);
  });

  it('refuses to start with bad configuration, listing every bad key (exit 78)', async () => {
    const proc = run(['bot'], {
      SLACK_BOT_TOKEN: 'not-a-token',
      PORT: 'eighty',
      CLUSTERS_FILE: join(dir, 'missing.yaml'),
    });
    expect(await proc.exited).toBe(78);
    const stderr = proc.stderr();
    expect(stderr).toContain('Configuration is invalid:');
    expect(stderr).toContain('SLACK_BOT_TOKEN: must be the Bot User OAuth Token');
    expect(stderr).toContain('PORT: must be a port number');
    expect(stderr).toMatch(/CLUSTERS_FILE: cannot read .*missing.yaml \(ENOENT\)/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects unknown flags with the subcommand’s help (exit 64)', async () => {
    const proc = run(['bot', '--port', '1'], env);
    expect(await proc.exited).toBe(64);
    expect(proc.stderr()).toMatch(/Unknown option '--port'[\s\S]*Usage: proxy-migrate bot/);
  });

  it('runs the bot, answers Slack and health checks, and stops cleanly on SIGTERM', async () => {
    const proc = run(['bot'], env);
    try {
      const port = await portFromLog(proc, 'bot started');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const body = slashCommandBody({ text: 'help', response_url: fake.responseUrl('cli') });
      const ack = await postSigned(`http://127.0.0.1:${port}/slack/events`, body, {
        secret: SIGNING_SECRET,
      });
      expect(ack.status).toBe(200);
      expect(await ack.text()).toContain('/proxy-migrate preflight');
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toBe(0);
    expect(proc.stdout()).toContain('"msg":"stopped"');
    expect(proc.stdout()).not.toContain(fake.botToken);
  });

  it('runs a worker with its own health endpoint and stops on SIGTERM', async () => {
    const proc = run(['worker'], { ...env, SLACK_SIGNING_SECRET: '' });
    try {
      const port = await portFromLog(proc, 'worker started');
      expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toMatchObject({
        ready: true,
      });
      expect(
        (await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST' })).status,
      ).toBe(404);
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toBe(0);
  });

  it('serves a shipped scenario with `twin` so kubectl can read it, and stops on SIGTERM', async () => {
    const kubeconfig = join(dir, 'twin.kubeconfig');
    const proc = run(['twin', '--scenario', 'kubeadm-ipvs', '--kubeconfig', kubeconfig], {});
    try {
      const deadline = Date.now() + 20_000;
      while (
        !proc.stdout().includes('kubeconfig ') &&
        Date.now() < deadline &&
        proc.child.exitCode === null
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(proc.stdout()).toMatch(/^twin "kubeadm-ipvs" serving http:\/\/127\.0\.0\.1:\d+\n/);
      const { stdout } = await promisify(execFile)(
        'kubectl',
        ['get', 'nodes', '-l', 'node-pool=legacy'],
        {
          env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: kubeconfig },
        },
      );
      expect(stdout).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\nlegacy-1\s+Ready\s+<none>/);
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited).toBe(0);
  });

  it('names the shipped scenarios when asked for one that does not exist (exit 64)', async () => {
    const proc = run(['twin', '--scenario', 'no-such-cluster'], {});
    expect(await proc.exited).toBe(64);
    expect(proc.stderr()).toMatch(/no shipped scenario of that name \(shipped: .*kubeadm-ipvs/);
  });

  it('prints the pre-flight report as JSON and exits 2 on blockers', async () => {
    const proc = run(
      [
        'preflight',
        'cluster-a',
        '--kubeconfig',
        join(dir, 'kubeconfig.yaml'),
        '--context',
        twin.name,
        '--format',
        'json',
        '--pool-label',
        'node-pool',
      ],
      {},
    );
    expect(await proc.exited).toBe(2);
    const report = JSON.parse(proc.stdout()) as {
      cluster: string;
      summary: Record<string, number>;
      pools: { name: string; nodes: string[] }[];
      findings: { check: string; severity: string; scope: { kind: string; name: string } }[];
    };
    expect(report.cluster).toBe('cluster-a');
    expect(report.summary.block).toBeGreaterThan(0);
    expect(report.pools.map((p) => p.name)).toEqual(['blue', 'control-plane', 'green', 'legacy']);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        check: 'kernel-version',
        severity: 'block',
        scope: { kind: 'pool', name: 'legacy' },
      }),
    );
    // Progress went to stderr, never into the JSON.
    expect(proc.stderr()).toContain('probing nodes 6/6');
  });

  it('exits by --fail-on and --suppress, and refuses unknown check ids (exit 64)', async () => {
    const base = [
      'preflight',
      'cluster-a',
      '--kubeconfig',
      join(dir, 'kubeconfig.yaml'),
      '--no-probe',
      '--format',
      'md',
    ];
    const none = run([...base, '--fail-on', 'none'], {});
    expect(await none.exited).toBe(0);
    expect(none.stdout()).toMatch(/^# Pre-flight · cluster-a\n/);
    const suppressed = run([...base, '--suppress', 'kernel-version,nft-version'], {});
    expect(await suppressed.exited).toBe(0);
    const warn = run(
      [...base, '--suppress', 'kernel-version,nft-version', '--fail-on', 'warn'],
      {},
    );
    expect(await warn.exited).toBe(3);
    const unknown = run([...base, '--suppress', 'kernel'], {});
    expect(await unknown.exited).toBe(64);
    expect(unknown.stderr()).toContain('Unknown check id for --suppress: kernel.');
  });

  it('uses the clusters file when no kubeconfig is given, and names unknown clusters', async () => {
    const ok = run(['preflight', 'cluster-a', '--no-probe', '--fail-on', 'none'], env);
    expect(await ok.exited).toBe(0);
    expect(ok.stdout()).toMatch(/^Pre-flight · cluster-a · v1\.33\.4 · kubeadm · mode ipvs/);
    const typo = run(['preflight', 'clustr-a', '--no-probe'], env);
    expect(await typo.exited).toBe(64);
    expect(typo.stderr()).toContain(
      'Unknown cluster "clustr-a". Known: cluster-a. Did you mean cluster-a?',
    );
  });
});

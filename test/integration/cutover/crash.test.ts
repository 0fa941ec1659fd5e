// kill -9 of the terminal process at a step boundary, then `proxy-migrate resume`: the run carries
// on from its saved state and ends verified (or rolled back), never half-migrated, and the
// invariants hold. Run state is in files (no Redis), as for a terminal without one.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { FileRunStore } from '../../../src/adapters/run-store/file.js';
import { cliIn, NO_REDIS } from '../../helpers/cli.js';
import { assertInvariants, kubeProxyPods } from '../../helpers/invariants.js';

const ENTRY = join(import.meta.dirname, '../../../src/main.ts');

let twin: Twin | undefined;
let dir: string | undefined;

afterEach(async () => {
  await twin?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  twin = undefined;
  dir = undefined;
});

/** A twin, a clusters file naming it, and the environment of a terminal without Redis. */
async function setUp() {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: 10 });
  dir = await mkdtemp(join(tmpdir(), 'pm-crash-'));
  await twin.writeKubeconfig(join(dir, 'kubeconfig'));
  await writeFile(
    join(dir, 'clusters.yaml'),
    `clusters:\n  - name: ${twin.name}\n    kubeconfig: ./kubeconfig\n    context: ${twin.name}\n`,
  );
  const env = {
    HOME: dir,
    REDIS_URL: NO_REDIS,
    PROXY_MIGRATE_STATE_DIR: join(dir, 'runs'),
    CLUSTERS_FILE: join(dir, 'clusters.yaml'),
    LOG_LEVEL: 'error',
  };
  return { twin, dir, env };
}

/** Starts `cutover` in a child process and kills it (SIGKILL) once `step` has completed. */
async function cutoverKilledAfter(
  env: Record<string, string>,
  cluster: string,
  node: string,
  step: string,
) {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', ENTRY, 'cutover', cluster, node, '--yes'],
    {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const store = new FileRunStore(env.PROXY_MIGRATE_STATE_DIR ?? '');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [run] = await store.list();
    if (run?.steps.some((s) => s.id === step && s.status === 'done')) break;
    if (child.exitCode !== null)
      throw new Error(`cutover exited ${child.exitCode} before ${step}: ${err}`);
    if (Date.now() > deadline) throw new Error(`no ${step} within 60 s: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  const [run] = await store.list();
  return run;
}

describe('a terminal killed in the middle of a cutover', () => {
  it.each(['canary', 'switching', 'old-pod-gone', 'new-pod-ready'])(
    'resumes after kill -9 at %s and ends verified',
    async (step) => {
      const { twin, dir, env } = await setUp();
      const before = kubeProxyPods(twin);
      const killed = await cutoverKilledAfter(env, twin.name, 'green-1', step);
      expect(killed?.phase).not.toBe('done');
      const cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
      const resumed = await cli.run('resume', twin.name, '--format', 'json');
      expect(resumed.code, `${resumed.stderr}\n${resumed.stdout}`).toBe(0);
      const result = JSON.parse(resumed.stdout) as { run: string; outcome: string };
      expect(result).toMatchObject({ run: killed?.id, outcome: 'verified' });
      const [run] = await cli.runs();
      expect(run?.history.map((h) => h.event)).toContain('resumed');
      assertInvariants(twin, { before, touched: ['green-1'], runs: await cli.runs() });
      // Nothing left behind: no probe pod outlives the run, the lock is released.
      const { resourceFor } = await import('@proxy-migrate/twin');
      const probes = twin.store
        .list(resourceFor('pods'), { namespace: 'proxy-migrate-probes' })
        .items.filter((p) => (p.metadata.name ?? '').startsWith('proxy-migrate-probe-'));
      expect(probes.filter((p) => p.metadata.deletionTimestamp === undefined)).toEqual([]);
      expect(
        twin.store.get(resourceFor('leases'), 'kube-system', 'proxy-migrate-lock'),
      ).toBeUndefined();
    },
    120_000,
  );

  it('asks again for the confirmation a killed terminal was waiting for, and without a terminal ends refused', async () => {
    const { twin, dir, env } = await setUp();
    const before = kubeProxyPods(twin);
    // The prompt needs a terminal: script(1) gives the child one. Its argument is a shell
    // command, so every word is single-quoted (the paths come from mkdtemp).
    const quote = (w: string) => `'${w.replaceAll("'", "'\\''")}'`;
    const argv = [process.execPath, '--conditions=source', '--import', 'tsx', ENTRY];
    const command = [...argv, 'cutover', twin.name, 'green-1'].map(quote).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const store = new FileRunStore(env.PROXY_MIGRATE_STATE_DIR);
    const deadline = Date.now() + 60_000;
    let waiting;
    for (;;) {
      [waiting] = await store.list();
      if (waiting?.phase === 'awaiting-approval' && out.includes('Apply this plan?')) break;
      if (child.exitCode !== null) throw new Error(`cutover exited ${child.exitCode}: ${out}`);
      if (Date.now() > deadline) throw new Error(`no prompt within 60 s: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The run's heartbeat names its process (host:pid): kill that, not script(1).
    const owner = await store.owner(waiting.id);
    const pid = Number(owner?.split(':').at(-1));
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const cli = cliIn(join(dir, 'runs'), { CLUSTERS_FILE: join(dir, 'clusters.yaml') });
    const resumed = await cli.run('resume', twin.name, '--format', 'json');
    expect(resumed.code, `${resumed.stderr}\n${resumed.stdout}`).toBe(2);
    expect(resumed.stderr).toContain('Cutover of green-1');
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      run: waiting.id,
      outcome: 'refused',
      reason: expect.stringContaining('not confirmed in the terminal'),
    });
    assertInvariants(twin, { before, touched: [], runs: await cli.runs() });
  }, 120_000);
});

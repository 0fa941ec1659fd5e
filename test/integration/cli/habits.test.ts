// The CLI habits SRE tools share, through the real program on the twin: data on stdout and
// progress on stderr (so `-o json | jq` works), -o as --format, <cluster> named after the
// kubeconfig's context when left out, colour only on a terminal and never with NO_COLOR, a bad
// kubeconfig exiting 78 before any work, and --version from the sources and from the build.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwin, type Twin } from '@proxy-migrate/twin';
import { main } from '../../../src/cli/program.js';
import type { CliIo } from '../../../src/cli/types.js';
import type { PreflightReport } from '../../../src/core/report.js';
import type { RunResultJson } from '../../../src/views/run-result.js';
import { cliIn, NO_REDIS } from '../../helpers/cli.js';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');
const ENTRY = join(ROOT, 'src/main.ts');
const BUILT = join(ROOT, 'dist/main.js');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

async function binary(
  argv: string[],
  env: Record<string, string> = {},
  entry: string[] = ['--import', 'tsx', ENTRY],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [...entry, ...argv], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), REDIS_URL: NO_REDIS, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

let twin: Twin;
let dir: string;
let kubeconfig: string;

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: 10 });
  dir = await mkdtemp(join(tmpdir(), 'pm-habits-'));
  kubeconfig = join(dir, 'kubeconfig');
  await twin.writeKubeconfig(kubeconfig);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('CLI habits', () => {
  it('preflight -o json with <cluster> left out: the report alone on stdout, progress on stderr', async () => {
    const cli = cliIn(join(dir, 'runs'));
    const got = await cli.run('preflight', '--kubeconfig', kubeconfig, '-o', 'json');
    expect([0, 2, 3], got.stderr).toContain(got.code);
    const report = JSON.parse(got.stdout) as PreflightReport;
    // Named after the kubeconfig's current context, which the twin calls after its scenario.
    expect(report.cluster).toBe(twin.name);
    expect(got.stderr).toMatch(/probing nodes \d+\/\d+/);
    expect(got.stdout).not.toContain('probing nodes');
  });

  it('cutover <node> --context … -o json: one JSON object on stdout, every step on stderr', async () => {
    const cli = cliIn(join(dir, 'runs'));
    const got = await cli.run(
      'cutover',
      'blue-1',
      '--kubeconfig',
      kubeconfig,
      '--context',
      twin.name,
      '--yes',
      '-o',
      'json',
    );
    expect(got.code, got.stderr).toBe(0);
    const result = JSON.parse(got.stdout) as RunResultJson;
    expect(result).toMatchObject({ cluster: twin.name, node: 'blue-1', outcome: 'verified' });
    expect(got.stderr).toMatch(/^run co-/m);
    expect(got.stderr).toContain('✓ node pre-flight');
    expect(got.stderr).toContain('✓ nftables verified');
    expect(got.stdout).not.toContain('✓');
    const back = await cli.run('rollback', 'blue-1', '--kubeconfig', kubeconfig, '--yes');
    expect(back.code, back.stderr).toBe(0);
  });

  it('plan --output json names the cluster after --context', async () => {
    const cli = cliIn(join(dir, 'runs'));
    const got = await cli.run(
      'plan',
      '--kubeconfig',
      kubeconfig,
      '--context',
      twin.name,
      '--output',
      'json',
    );
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ hash: expect.any(String) as string });
  });

  it('colours a terminal, and not with NO_COLOR', async () => {
    const run = async (env: Record<string, string>): Promise<string> => {
      let stdout = '';
      const io: CliIo = {
        stdout: {
          isTTY: true,
          write: (s: string) => ((stdout += s), true),
        } as unknown as NodeJS.WritableStream,
        stderr: { write: () => true } as unknown as NodeJS.WritableStream,
        env: { HOME: dir, REDIS_URL: NO_REDIS, LOG_LEVEL: 'error', ...env },
      };
      await main(['preflight', '--kubeconfig', kubeconfig, '--no-probe'], io);
      return stdout;
    };
    expect(await run({})).toContain('\u001b[');
    const plain = await run({ NO_COLOR: '1' });
    expect(plain).toContain(twin.name);
    expect(plain).not.toContain('\u001b');
  });

  it('a bad kubeconfig exits 78 before any work, from the flag or the clusters file', async () => {
    const missing = await binary(['status', '--kubeconfig', join(dir, 'nope')]);
    expect(missing.code).toBe(78);
    expect(missing.stderr).toContain('cannot load kubeconfig');
    expect(missing.stdout).toBe('');
    const clusters = join(dir, 'clusters.yaml');
    await writeFile(
      clusters,
      `clusters:\n  - name: cluster-a\n    kubeconfig: ${kubeconfig}\n    context: not-there\n`,
    );
    const context = await binary(['plan', 'cluster-a'], { CLUSTERS_FILE: clusters });
    expect(context.code).toBe(78);
    expect(context.stderr).toContain('context "not-there" is not in');
  });

  it('--version and version print package.json’s version, from the sources and the build', async () => {
    expect(await binary(['--version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    expect(await binary(['version'])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
    // npm ci builds dist/ (the prepare script); the built binary finds package.json too.
    expect(existsSync(BUILT)).toBe(true);
    expect(await binary(['--version'], {}, [BUILT])).toMatchObject({
      code: 0,
      stdout: `${VERSION}\n`,
    });
  });
});

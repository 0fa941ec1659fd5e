// The process-level guard in a real Node process: an unhandled rejection and an uncaught
// exception are logged as structured lines and the process keeps going; without the guard the
// same process dies (so the test can tell).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const src = (path: string): string =>
  pathToFileURL(join(import.meta.dirname, '../../../src', path)).href;

function script(guarded: boolean): string {
  return `
import { createLogger } from ${JSON.stringify(src('log.ts'))};
import { installProcessGuards } from ${JSON.stringify(src('cli/process-guard.ts'))};
const logger = createLogger({ level: 'info' });
if (${guarded}) installProcessGuards(logger);
const failure = Object.assign(new Error('boom from a listener'), { code: 'E_TEST', req: { headers: { cookie: 'cookie-secret-4711' } } });
void Promise.reject(failure);
setTimeout(() => { throw new Error('kaboom from a callback'); }, 20);
setTimeout(() => { process.stdout.write('still serving\\n'); process.exit(0); }, 200);
`;
}

async function runChild(file: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, stdout };
}

describe('process guards', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pm-guard-'));
    await writeFile(join(dir, 'guarded.ts'), script(true));
    await writeFile(join(dir, 'bare.ts'), script(false));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('logs an unhandled rejection and an uncaught exception, structured, and keeps serving', async () => {
    const { code, stdout } = await runChild(join(dir, 'guarded.ts'));
    expect(code).toBe(0);
    expect(stdout).toContain('still serving');
    const lines = stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map(
        (l) =>
          JSON.parse(l) as { level: string; msg: string; err?: { message: string; code?: string } },
      );
    const rejection = lines.find((l) => l.msg === 'unhandled promise rejection; still serving');
    expect(rejection).toMatchObject({
      level: 'error',
      err: { message: 'boom from a listener', code: 'E_TEST' },
    });
    const exception = lines.find((l) => l.msg === 'uncaught exception; still serving');
    expect(exception).toMatchObject({ level: 'error', err: { message: 'kaboom from a callback' } });
    // The error's own properties (SDK errors carry whole requests) are not logged.
    expect(stdout).not.toContain('cookie-secret-4711');
  }, 20_000);

  it('without the guard the same process dies', async () => {
    const { code, stdout } = await runChild(join(dir, 'bare.ts'));
    expect(code).not.toBe(0);
    expect(stdout).not.toContain('still serving');
  }, 20_000);
});

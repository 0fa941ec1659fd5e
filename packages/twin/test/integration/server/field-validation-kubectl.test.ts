// fieldValidation through the real kubectl: `create` (kubectl's default --validate=strict sends
// Strict), `apply --validate=warn` and `--validate=ignore`, `patch` (the server's Warn default)
// and `apply --server-side`, whose unknown fields fail in the field manager whatever the flag.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { startHarness } from './harness.js';

let h: Harness;
let dir: string;

beforeAll(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), 'twin-validate-'));
});

afterAll(async () => {
  await h.close();
});

async function file(name: string, obj: unknown): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(obj));
  return path;
}

const withUnknown = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', labels: { app: 'x' } },
  data: { a: '1' },
  spec: { mode: 'nftables' },
});

async function json(...target: string[]): Promise<Record<string, unknown>> {
  const r = await h.kubectl('get', ...target, '-o', 'json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('kubectl and fieldValidation', () => {
  it('create fails on an unknown field with the strict decoding error', async () => {
    const path = await file('strict.json', withUnknown('strict'));
    const r = await h.kubectl('create', '-f', path);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `Error from server (BadRequest): error when creating "${path}": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec"`,
    );
    expect((await h.kubectl('get', 'cm', 'strict')).code).toBe(1);
  });

  it('apply --validate=warn prints the warning and drops the field', async () => {
    const r = await h.kubectl(
      'apply',
      '--validate=warn',
      '-f',
      await file('warn.json', withUnknown('warn')),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('configmap/warn created');
    expect(r.stderr).toBe('Warning: unknown field "spec"\n');
    const stored = await json('cm', 'warn');
    expect(stored['spec']).toBeUndefined();
    expect(stored['data']).toEqual({ a: '1' });
  });

  it('apply --validate=ignore drops the field silently', async () => {
    const r = await h.kubectl(
      'apply',
      '--validate=ignore',
      '-f',
      await file('ignore.json', withUnknown('ignore')),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect((await json('cm', 'ignore'))['spec']).toBeUndefined();
  });

  it('patch warns about an unknown field under the server default', async () => {
    const created = await h.kubectl(
      'create',
      '-f',
      await file('patched.json', { ...withUnknown('patched'), spec: undefined }),
    );
    expect(created.code, created.stderr).toBe(0);
    const r = await h.kubectl(
      'patch',
      'cm',
      'patched',
      '--type=merge',
      '-p',
      '{"data":{"b":"2"},"extra":true}',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('Warning: unknown field "extra"\n');
    expect(r.stdout.trim()).toBe('configmap/patched patched');
    const stored = await json('cm', 'patched');
    expect(stored['extra']).toBeUndefined();
    expect(stored['data']).toEqual({ a: '1', b: '2' });
  });

  it('apply --server-side fails on an unknown field in the field manager', async () => {
    const r = await h.kubectl(
      'apply',
      '--server-side',
      '-f',
      await file('ssa.json', withUnknown('ssa')),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'Error from server: failed to create typed patch object (default/ssa; /v1, Kind=ConfigMap): .spec: field not declared in schema',
    );
  });
});

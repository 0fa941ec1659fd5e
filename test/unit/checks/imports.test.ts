import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../../src/checks/', import.meta.url));

function importsOf(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/^(?:import|export)[^;]*? from '([^']+)'/gms)].map(
    (m) => m[1] ?? '',
  );
}

// Shared logic belongs in support/, so checks stay independent and agree with each other.
describe('src/checks imports', () => {
  it('lets a check import only types, group, support and core, never another check', () => {
    const allowed = /^(\.\/types\.js|\.\/group\.js|\.\/support\/[\w-]+\.js|\.\.\/core\/.+)$/;
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
    expect(files.length).toBeGreaterThan(20);
    const offending = files.flatMap((f) =>
      importsOf(`${dir}${f}`)
        .filter((spec) => !allowed.test(spec))
        .map((spec) => `${f}: ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it('lets support modules import only each other, the check types and core', () => {
    const allowed = /^(\.\.\/types\.js|\.\/[\w-]+\.js|\.\.\/\.\.\/core\/.+)$/;
    const files = readdirSync(`${dir}support`).filter((f) => f.endsWith('.ts'));
    const offending = files.flatMap((f) =>
      importsOf(`${dir}support/${f}`)
        .filter((spec) => !allowed.test(spec))
        .map((spec) => `support/${f}: ${spec}`),
    );
    expect(offending).toEqual([]);
  });
});

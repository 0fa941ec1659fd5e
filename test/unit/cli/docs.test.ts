// The README's exit-code table lists every subcommand, so a new one cannot ship undocumented.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { subcommands } from '../../../src/cli/index.js';

const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');

describe('README', () => {
  it('has every subcommand in the exit-code table', () => {
    const start = readme.indexOf('Exit codes of every subcommand');
    expect(start).toBeGreaterThan(-1);
    const rows = readme
      .slice(start)
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    const listed = rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1]),
    );
    for (const c of subcommands) expect(listed).toContain(c.name);
  });
});

// docs/preflight-claims.md is the register of what the pre-flight checks claim and why: a row that
// names a check or a test that no longer exists would send a reader (or a reviewer) to nothing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const statuses = ['fixed', 'correct', 'unverifiable-hedged'] as const;

interface ClaimRow {
  number: number;
  claim: string;
  checks: string[];
  status: string;
  source: string;
  tests: { file: string; title: string }[];
}

/** The table rows of the register: `| # | Claim | Check | Status | Source | Test |`. */
function claimRows(markdown: string): ClaimRow[] {
  return markdown
    .split('\n')
    .filter((line) => /^\|\s*\d+\s*\|/.test(line))
    .map((line) => {
      const cells = line
        .slice(1, line.lastIndexOf('|'))
        .split('|')
        .map((c) => c.trim());
      const [number = '', claim = '', check = '', status = '', source = '', test = ''] = cells;
      return {
        number: Number(number),
        claim,
        checks: check
          .split(',')
          .map((c) => c.trim())
          .filter((c) => c !== ''),
        status,
        source,
        tests: test.split('<br>').map((item) => {
          const match = /^`([^`]+)` › (.+)$/.exec(item.trim());
          return { file: match?.[1] ?? '', title: match?.[2] ?? item };
        }),
      };
    });
}

const rows = claimRows(readFileSync(`${root}docs/preflight-claims.md`, 'utf8'));

describe('docs/preflight-claims.md', () => {
  it('has one row per claim, numbered 1 to 46 at least, without gaps, each with a status and a source', () => {
    expect(rows.length).toBeGreaterThanOrEqual(46);
    expect(rows.map((r) => r.number)).toEqual(rows.map((_, i) => i + 1));
    for (const row of rows) {
      expect(statuses, `row ${row.number}`).toContain(row.status);
      expect(row.claim, `row ${row.number}`).not.toBe('');
      expect(row.source, `row ${row.number}`).not.toBe('');
    }
  });

  it('names an existing check file in every row', () => {
    const missing = rows.flatMap((row) =>
      row.checks.length === 0
        ? [`${row.number}: no check`]
        : row.checks
            .filter((c) => !c.endsWith('.ts') || !existsSync(`${root}src/checks/${c}`))
            .map((c) => `${row.number}: ${c}`),
    );
    expect(missing).toEqual([]);
  });

  it('names in every row at least one existing test file and a test title that is in it', () => {
    const wrong = rows.flatMap((row) =>
      row.tests.flatMap(({ file, title }) => {
        if (!/^test\/.+\.test\.ts$/.test(file) || !existsSync(`${root}${file}`)) {
          return [`${row.number}: no test file "${file}"`];
        }
        const text = readFileSync(`${root}${file}`, 'utf8');
        return text.includes(`'${title}'`) || text.includes(`"${title}"`)
          ? []
          : [`${row.number}: "${title}" is not a test title in ${file}`];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it('is linked from the README pre-flight section and from CONTRIBUTING', () => {
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const preflight = readme.slice(readme.indexOf('\n## Pre-flight\n'));
    expect(preflight.slice(0, preflight.indexOf('\n## ', 1))).toContain('docs/preflight-claims.md');
    expect(readFileSync(`${root}CONTRIBUTING.md`, 'utf8')).toContain('docs/preflight-claims.md');
  });
});

import { describe, expect, it } from 'vitest';
import { ageSince, humanDuration } from '../../../src/printers/age.js';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (kubectl AGE)', () => {
  it.each([
    [91 * s, '91s'],
    [2 * m, '2m'],
    [2 * m + 1 * s, '2m1s'],
    [2 * m + 31 * s, '2m31s'],
    [10 * m, '10m'],
    [83 * m, '83m'],
    [3 * h, '3h'],
    [3 * h + 3 * m, '3h3m'],
    [5 * h + 33 * m, '5h33m'],
    [8 * h, '8h'],
    [27 * h, '27h'],
    [2 * d, '2d'],
    [2 * d + 7 * h, '2d7h'],
    [5 * d + 18 * h, '5d18h'],
    [8 * d, '8d'],
    [115 * d, '115d'],
    [2 * 365 * d, '2y'],
    [3 * 365 * d + 62 * d, '3y62d'],
    [8 * 365 * d, '8y'],
    [-1500, '0s'],
    [-5 * s, '<invalid>'],
  ])('%d ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('renders <unknown> for missing timestamps', () => {
    expect(ageSince(undefined, Date.now())).toBe('<unknown>');
    expect(ageSince('2025-01-01T00:00:00Z', Date.parse('2025-01-01T00:01:05Z'))).toBe('65s');
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatMicroTime,
  microTimeAt,
  microTimeMs,
  parseMicroTime,
} from '../../../src/apimachinery/micro-time.js';

const layout = '"2006-01-02T15:04:05.000000Z07:00"';
const err = (value: string): string => {
  try {
    parseMicroTime(value);
  } catch (error) {
    return (error as Error).message;
  }
  return 'parsed';
};

describe('MicroTime decoding (Go time.Parse with RFC3339Micro)', () => {
  it('accepts exactly six fraction digits and prints UTC with six digits', () => {
    expect(formatMicroTime(parseMicroTime('2026-01-02T03:04:05.678000Z'))).toBe(
      '2026-01-02T03:04:05.678000Z',
    );
    expect(formatMicroTime(parseMicroTime('2026-01-02T05:04:05.000001+02:00'))).toBe(
      '2026-01-02T03:04:05.000001Z',
    );
    expect(microTimeMs('2026-01-02T03:04:05.678999Z')).toBe(Date.parse('2026-01-02T03:04:05.678Z'));
    expect(microTimeAt(Date.parse('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
  });

  it('rejects a toISOString() value with the error Go prints', () => {
    expect(err('2026-01-02T03:04:05.678Z')).toBe(
      `parsing time "2026-01-02T03:04:05.678Z" as ${layout}: cannot parse ".678Z" as ".000000"`,
    );
  });

  it('words the other failures as Go does', () => {
    expect(err('2026-01-02T03:04:05Z')).toBe(
      `parsing time "2026-01-02T03:04:05Z" as ${layout}: cannot parse "Z" as ".000000"`,
    );
    expect(err('2020-02-28T20:11:41.636526400Z')).toBe(
      `parsing time "2020-02-28T20:11:41.636526400Z" as ${layout}: cannot parse "400Z" as "Z07:00"`,
    );
    expect(err('2026-13-02T03:04:05.000000Z')).toBe(
      'parsing time "2026-13-02T03:04:05.000000Z": month out of range',
    );
    expect(err('2026-02-30T03:04:05.000000Z')).toBe(
      'parsing time "2026-02-30T03:04:05.000000Z": day out of range',
    );
    expect(err('2026-01-02 03:04:05.000000Z')).toBe(
      `parsing time "2026-01-02 03:04:05.000000Z" as ${layout}: cannot parse " 03:04:05.000000Z" as "T"`,
    );
    expect(err('2026-01-02T03:04:05.000000Zjunk')).toBe(
      'parsing time "2026-01-02T03:04:05.000000Zjunk": extra text: "junk"',
    );
    expect(err('')).toBe(`parsing time "" as ${layout}: cannot parse "" as "2006"`);
  });
});

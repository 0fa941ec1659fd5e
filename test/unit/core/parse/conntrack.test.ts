import { describe, expect, it } from 'vitest';
import {
  counterPerCpu,
  invalidPerCpu,
  parseConntrackStats,
  sumCounter,
} from '../../../../src/core/parse/conntrack.js';

// conntrack v1.4.7 on a 6.x kernel: `cpu=%-4u\t`, then `key=value ` with a trailing space.
const modern = [
  'cpu=0   \tfound=0 invalid=0 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=0 clash_resolve=0 chaintoolong=0 ',
  'cpu=1   \tfound=2 invalid=7 insert=0 insert_failed=0 drop=0 early_drop=0 error=0 search_restart=3 clash_resolve=1 chaintoolong=0 ',
  '',
].join('\n');

// Older kernels: `ignore=` present, no clash_resolve/chaintoolong.
const older = [
  'cpu=0   \tfound=11 invalid=4 ignore=120 insert=0 insert_failed=0 drop=0 early_drop=0 error=4 search_restart=0 ',
  'cpu=1   \tfound=9 invalid=2 ignore=98 insert=0 insert_failed=0 drop=0 early_drop=0 error=2 search_restart=0 ',
].join('\n');

// conntrack-tools' /proc fallback: the /proc/net/stat/nf_conntrack column names as key=value.
const procFallback =
  'cpu=0   \tentries=44 searched=0 found=4051 new=0 invalid=13 ignore=6052 delete=0 delete_list=0 insert=0 insert_failed=0 drop=0 early_drop=0 icmp_error=0 expect_new=0 expect_create=0 expect_delete=0 search_restart=5 \n';

// The raw /proc/net/stat/nf_conntrack file: a header, then hex values per CPU.
const rawProc = [
  'entries  clashres found new invalid ignore delete chainlength insert insert_failed drop early_drop icmp_error  expect_new expect_create expect_delete search_restart',
  '0000002c  00000000 00000fd3 00000000 0000000d 000017a4 00000000 00000000 00000000 00000000 00000000 00000000 00000000  00000000 00000000 00000000 00000005',
  '0000002c  00000000 00000010 00000000 00000001 00000020 00000000 00000000 00000000 00000000 00000000 00000000 00000000  00000000 00000000 00000000 00000000',
  '',
].join('\n');

describe('parseConntrackStats', () => {
  it('parses the per-CPU key=value lines of conntrack -S', () => {
    const stats = parseConntrackStats(modern);
    expect(stats).toHaveLength(2);
    expect(stats[0]).toEqual({
      cpu: 0,
      counters: {
        found: 0,
        invalid: 0,
        insert: 0,
        insert_failed: 0,
        drop: 0,
        early_drop: 0,
        error: 0,
        search_restart: 0,
        clash_resolve: 0,
        chaintoolong: 0,
      },
    });
    expect(stats[1]?.counters['search_restart']).toBe(3);
    expect(invalidPerCpu(stats)).toEqual([0, 7]);
    expect(sumCounter(invalidPerCpu(stats))).toBe(7);
  });

  it('keeps whatever counters an older kernel prints', () => {
    const stats = parseConntrackStats(older);
    expect(stats.map((s) => s.counters['ignore'])).toEqual([120, 98]);
    expect(stats[0]?.counters['clash_resolve']).toBeUndefined();
    expect(sumCounter(invalidPerCpu(stats))).toBe(6);
    expect(counterPerCpu(stats, 'clash_resolve')).toEqual([0, 0]);
  });

  it('parses the /proc fallback conntrack-tools prints', () => {
    const stats = parseConntrackStats(procFallback);
    expect(stats).toHaveLength(1);
    expect(stats[0]?.counters).toMatchObject({ entries: 44, invalid: 13, icmp_error: 0 });
  });

  it('parses the raw /proc/net/stat/nf_conntrack table (hex values)', () => {
    const stats = parseConntrackStats(rawProc);
    expect(stats.map((s) => s.cpu)).toEqual([0, 1]);
    expect(stats[0]?.counters).toMatchObject({
      entries: 44,
      found: 4051,
      invalid: 13,
      ignore: 6052,
    });
    expect(invalidPerCpu(stats)).toEqual([13, 1]);
  });

  it('orders CPUs and returns nothing for garbage', () => {
    const swapped = modern.split('\n').reverse().join('\n');
    expect(parseConntrackStats(swapped).map((s) => s.cpu)).toEqual([0, 1]);
    expect(parseConntrackStats('')).toEqual([]);
    expect(parseConntrackStats('conntrack: command not found')).toEqual([]);
    expect(
      parseConntrackStats('conntrack v1.4.7 (conntrack-tools): Operation not permitted'),
    ).toEqual([]);
  });
});

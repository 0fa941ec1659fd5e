import { describe, expect, it } from 'vitest';
import {
  evidence,
  metricSeries,
  OUTPUT_LIMIT,
  outputOf,
  readable,
  sample,
  trimOutput,
  unreadable,
} from '../../../src/verify/evidence.js';
import * as out from '../../fixtures/node-outputs.js';
import { logRead, read } from './inputs.js';

const scope = { node: 'n1', step: 'verify', now: '2026-12-01T10:00:00.000Z' };
const bytes = (s: string) => new TextEncoder().encode(s).length;

describe('trimOutput', () => {
  it('keeps short output whole, without trailing blank lines', () => {
    expect(trimOutput('a\nb\n\n')).toBe('a\nb');
  });

  it('keeps the first and last lines of long output within 4 KiB', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const t = trimOutput(lines);
    expect(bytes(t)).toBeLessThanOrEqual(OUTPUT_LIMIT);
    expect(t.startsWith('line 0\nline 1\n')).toBe(true);
    expect(t.endsWith('line 1998\nline 1999')).toBe(true);
    expect(t).toMatch(/… \d+ bytes \(\d+ lines\) omitted …/);
  });

  it('cuts one huge line (nft -j prints one) by bytes, multibyte text included', () => {
    const t = trimOutput(out.nftTable.stdout);
    expect(bytes(t)).toBeLessThanOrEqual(OUTPUT_LIMIT);
    expect(t.startsWith('{"nftables": [')).toBe(true);
    expect(t.endsWith(']}')).toBe(true);
    expect(bytes(trimOutput('é'.repeat(5000)))).toBeLessThanOrEqual(OUTPUT_LIMIT);
  });
});

describe('evidence', () => {
  it('carries argv, exit code, output and the read time', () => {
    const r = read('ipvsadm-list', out.ipvsEmpty, 5);
    expect(evidence(scope, 'ipvs-empty', r, true, 'none')).toEqual({
      probe: 'ipvs-empty',
      step: 'verify',
      node: 'n1',
      argv: ['ipvsadm', '-Ln'],
      exitCode: 0,
      output: out.ipvsEmpty.stdout.trimEnd(),
      ok: true,
      verdict: 'none',
      at: r.at,
    });
  });

  it('shows stderr after stdout, and an API read’s lines', () => {
    expect(outputOf(read('kube-ipvs0', out.kubeIpvs0Missing))).toBe(
      'Device "kube-ipvs0" does not exist.',
    );
    expect(outputOf(logRead(['a', 'b']))).toBe('a\nb');
    expect(evidence(scope, 'x', undefined, false, 'v')).toMatchObject({
      argv: [],
      output: '',
      at: scope.now,
    });
  });

  it('narrows a /metrics page to the series a verdict is about, histogram lines included', () => {
    const page = [
      '# HELP go_goroutines Number of goroutines.',
      '# TYPE go_goroutines gauge',
      'go_goroutines 42',
      '# TYPE kubeproxy_sync_proxy_rules_duration_seconds histogram',
      'kubeproxy_sync_proxy_rules_duration_seconds_bucket{le="0.001"} 3',
      'kubeproxy_sync_proxy_rules_duration_seconds_sum 0.5',
      'kubeproxy_sync_proxy_rules_duration_seconds_count 7',
      'kubeproxy_sync_proxy_rules_duration_seconds_total_extra 1',
      'kubeproxy_sync_proxy_rules_last_timestamp_seconds 1.7e9',
    ].join('\n');
    const r = read('metrics', { stdout: page, stderr: '', exitCode: 0 });
    const keep = metricSeries('kubeproxy_sync_proxy_rules_duration_seconds');
    expect(evidence(scope, 'sync-p99', r, true, 'ok', keep).output).toBe(
      [
        '(kubeproxy_sync_proxy_rules_duration_seconds only)',
        '# TYPE kubeproxy_sync_proxy_rules_duration_seconds histogram',
        'kubeproxy_sync_proxy_rules_duration_seconds_bucket{le="0.001"} 3',
        'kubeproxy_sync_proxy_rules_duration_seconds_sum 0.5',
        'kubeproxy_sync_proxy_rules_duration_seconds_count 7',
      ].join('\n'),
    );
    expect(evidence(scope, 'x', undefined, false, 'v', keep).output).toBe('');
  });

  it('makes missing and failed reads failed evidence, and lets good ones through', () => {
    expect(unreadable(scope, 'x', undefined, 'the thing')).toMatchObject({
      ok: false,
      verdict: 'the thing was not read: unknown',
    });
    const bad = read('uname-r', {
      exitCode: 127,
      stdout: '',
      stderr: 'uname: command not found\n',
    });
    expect(unreadable(scope, 'x', bad, 'the kernel')?.verdict).toBe(
      'could not read the kernel: uname is not in the probe image (exit 127: uname: command not found)',
    );
    const good = read('uname-r', out.unameR);
    expect(unreadable(scope, 'x', good, 'the kernel')).toBeUndefined();
    expect(readable(scope, 'x', good, 'the kernel')).toEqual({
      ok: true,
      read: good,
      value: '5.15.0-122-generic',
    });
  });

  it('names a few items and counts the rest', () => {
    expect(sample(['a', 'b'])).toBe('a, b');
    expect(sample(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe('a, b, c, d, e and 2 more');
  });
});

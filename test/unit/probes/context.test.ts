import { describe, expect, it } from 'vitest';
import { dialAddress, probeContext } from '../../../src/probes/context.js';

describe('probeContext', () => {
  it('defaults to kube-proxy’s own defaults (facts §2)', () => {
    expect(probeContext({})).toEqual({
      metrics: { host: '127.0.0.1', port: 10249 },
      healthz: { host: '127.0.0.1', port: 10256 },
    });
    expect(probeContext({ metricsBindAddress: '', nodeIP: '10.0.0.5' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 10249,
    });
  });

  it('dials a wildcard bind on loopback and a specific one on its address', () => {
    expect(dialAddress('0.0.0.0:10249', { host: 'x', port: 1 })).toEqual({
      host: '127.0.0.1',
      port: 10249,
    });
    expect(dialAddress('[::]:10256', { host: 'x', port: 1 })).toEqual({ host: '::1', port: 10256 });
    expect(dialAddress(':10249', { host: 'x', port: 1 })).toEqual({
      host: '127.0.0.1',
      port: 10249,
    });
    expect(dialAddress('10.0.0.5:10249', { host: 'x', port: 1 })).toEqual({
      host: '10.0.0.5',
      port: 10249,
    });
    expect(dialAddress('10.0.0.0/8:10249', { host: 'x', port: 1 }, '10.0.0.5')).toEqual({
      host: '10.0.0.5',
      port: 10249,
    });
    expect(dialAddress('garbage', { host: '127.0.0.1', port: 10249 })).toEqual({
      host: '127.0.0.1',
      port: 10249,
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { ApiFault } from '../../../../src/server/admin/faults.js';
import {
  FaultInjector,
  errorResponse,
  faultMatches,
  parseFaults,
  throttleResponse,
} from '../../../../src/server/admin/faults.js';
import { hashSeed, mulberry32, seededRandom } from '../../../../src/server/admin/prng.js';

const listPods = { verb: 'list', resource: 'pods' };

describe('seeded PRNG', () => {
  it('repeats the same sequence for the same seed', () => {
    const a = seededRandom('kubeadm-ipvs');
    const b = seededRandom('kubeadm-ipvs');
    const sa = Array.from({ length: 100 }, a);
    expect(Array.from({ length: 100 }, b)).toEqual(sa);
    expect(sa.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Array.from({ length: 100 }, seededRandom('other'))).not.toEqual(sa);
  });

  it('has a fixed output for a fixed seed (the reference mulberry32 sequence)', () => {
    const r = mulberry32(42);
    expect([r(), r(), r()].map((x) => x.toFixed(8))).toEqual([
      '0.60110375',
      '0.44829056',
      '0.85246579',
    ]);
    expect(hashSeed('')).toBe(0x811c9dc5);
    expect(hashSeed(7)).toBe(7);
  });

  it('is roughly uniform', () => {
    const r = seededRandom(1);
    const hits = Array.from({ length: 10_000 }, r).filter((x) => x < 0.3).length;
    expect(hits).toBeGreaterThan(2800);
    expect(hits).toBeLessThan(3200);
  });
});

describe('fault scoping', () => {
  it('matches verbs and resources like RBAC rules', () => {
    const f = (scope: Partial<ApiFault>): ApiFault =>
      ({ kind: 'latency', ms: 1, ...scope }) as ApiFault;
    expect(faultMatches(f({}), listPods)).toBe(true);
    expect(faultMatches(f({ verbs: [] }), listPods)).toBe(true);
    expect(faultMatches(f({ verbs: ['list'] }), listPods)).toBe(true);
    expect(faultMatches(f({ verbs: ['get'] }), listPods)).toBe(false);
    expect(faultMatches(f({ verbs: ['*'], resources: ['*'] }), listPods)).toBe(true);
    expect(faultMatches(f({ resources: ['nodes', 'pods'] }), listPods)).toBe(true);
    expect(faultMatches(f({ resources: ['pods'] }), { verb: 'get', resource: 'pods/log' })).toBe(
      false,
    );
    expect(
      faultMatches(f({ resources: ['pods/log'] }), { verb: 'get', resource: 'pods/log' }),
    ).toBe(true);
  });

  it('adds latencies, skips out-of-scope faults and answers the first firing rate fault', () => {
    const injector = new FaultInjector([
      { kind: 'latency', ms: 100 },
      { kind: 'latency', ms: 50, resources: ['pods'] },
      { kind: 'latency', ms: 999, verbs: ['delete'] },
      { kind: 'throttle', rate: 1, retryAfterSeconds: 1.2, resources: ['nodes'] },
      { kind: 'error', status: 503, rate: 1 },
      { kind: 'throttle', rate: 1, retryAfterSeconds: 2 },
    ]);
    const pods = injector.decide(listPods);
    expect(pods.latencyMs).toBe(150);
    expect(pods.response?.code).toBe(503);
    const nodes = injector.decide({ verb: 'get', resource: 'nodes' });
    expect(nodes.latencyMs).toBe(100);
    expect(nodes.response).toEqual(throttleResponse(1.2));
    expect(nodes.response?.headers).toEqual({ 'Retry-After': '2' });
    expect(injector.injected).toEqual({
      latency: 2,
      error: 1,
      throttle: 1,
      conflict: 0,
      reset: 0,
      watchDrop: 0,
    });
  });

  it('delays a share of the requests when a latency fault has a rate', () => {
    const injector = new FaultInjector([{ kind: 'latency', ms: 2000, rate: 0.25 }], 42);
    const delayed = Array.from({ length: 200 }, () => injector.decide(listPods)).filter(
      (d) => d.latencyMs === 2000,
    ).length;
    expect(delayed).toBe(
      Array.from({ length: 200 }, seededRandom(42)).filter((x) => x < 0.25).length,
    );
    expect(injector.injected.latency).toBe(delayed);
  });

  it('answers writes only with a conflict, and resets any verb', () => {
    const injector = new FaultInjector([
      { kind: 'conflict', rate: 1 },
      { kind: 'reset', rate: 1, resources: ['pods'] },
    ]);
    // A read draws no conflict (the apiserver never answers a read 409); the reset fires.
    expect(injector.decide({ verb: 'get', resource: 'pods' })).toEqual({
      latencyMs: 0,
      response: undefined,
      reset: true,
    });
    const patch = injector.decide(
      { verb: 'patch', resource: 'daemonsets' },
      { group: 'apps', name: 'kube-proxy' },
    );
    expect(patch.reset).toBe(false);
    expect(patch.response?.code).toBe(409);
    expect(patch.response?.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on daemonsets.apps "kube-proxy": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'kube-proxy', group: 'apps', kind: 'daemonsets' },
    });
    expect(injector.decide({ verb: 'get', resource: 'nodes' }).response).toBeUndefined();
    expect(injector.injected).toMatchObject({ conflict: 1, reset: 1 });
  });

  it('injects a stable number of errors for a seed, restarting the PRNG on every change', () => {
    const faults: ApiFault[] = [{ kind: 'error', status: 500, rate: 0.3 }];
    const count = (injector: FaultInjector) =>
      Array.from({ length: 200 }, () => injector.decide(listPods)).filter((d) => d.response).length;
    const injector = new FaultInjector(faults, 42);
    const first = count(injector);
    expect(count(new FaultInjector(faults, 42))).toBe(first);
    injector.replace(faults);
    expect(count(injector)).toBe(first);
    expect(first).toBe(Array.from({ length: 200 }, seededRandom(42)).filter((x) => x < 0.3).length);
  });

  it('gives watch lifetimes only to watches in scope', () => {
    const injector = new FaultInjector([
      { kind: 'watch-drop', everySeconds: 5 },
      { kind: 'watch-drop', everySeconds: 2, resources: ['pods'] },
      { kind: 'watch-drop', everySeconds: 1, verbs: ['list'] },
    ]);
    expect(injector.watchLifetimeMs('pods')).toBe(2000);
    expect(injector.watchLifetimeMs('nodes')).toBe(5000);
    expect(new FaultInjector().watchLifetimeMs('pods')).toBeUndefined();
  });
});

describe('fault responses and parsing', () => {
  it('builds real Status bodies', () => {
    expect(throttleResponse(3).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Too many requests, please try again later.',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 3 },
      code: 429,
    });
    expect(errorResponse(500).body['reason']).toBe('InternalError');
    expect(errorResponse(503).body['reason']).toBe('ServiceUnavailable');
    expect(errorResponse(503).headers).toEqual({});
  });

  it('accepts a list, {faults}, or one fault, and reports schema errors by path', () => {
    const one = { kind: 'latency', ms: 5 };
    expect(parseFaults([one])).toEqual([one]);
    expect(parseFaults({ faults: [one] })).toEqual([one]);
    expect(parseFaults(one)).toEqual([one]);
    expect(() => parseFaults([{ kind: 'error', status: 404, rate: 1 }])).toThrow(/faults\[0\]/);
    expect(() => parseFaults([{ kind: 'throttle', rate: 2, retryAfterSeconds: 1 }])).toThrow(
      /faults\[0\]\.rate/,
    );
    expect(() => parseFaults({})).toThrow(/expected a list of faults/);
  });
});

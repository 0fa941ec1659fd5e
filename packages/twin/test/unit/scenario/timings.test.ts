import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioError } from '../../../src/scenario/scenario.js';
import { defaultTimings, resolveTimings } from '../../../src/scenario/timings.js';

const header = (spec: string): string => `apiVersion: twin.proxy-migrate.io/v1
kind: Scenario
metadata: { name: unit }
spec:
  kubernetesVersion: v1.33.4
${spec}`;

describe('spec.timings', () => {
  it('defaults each delay from the sources, by version where it changed', () => {
    expect(defaultTimings('v1.33.4')).toEqual({
      podStartMs: 2000,
      podStopMs: 1000,
      configMapSyncMs: 60_000,
      kubeProxyFirstSyncMs: 1000,
      nodeMonitorGracePeriodMs: 50_000,
    });
    expect(defaultTimings('v1.31.2').nodeMonitorGracePeriodMs).toBe(40_000);
    expect(
      resolveTimings('v1.33.4', { configMapSyncSeconds: 5, kubeProxyFirstSyncSeconds: 0 }),
    ).toMatchObject({
      configMapSyncMs: 5000,
      kubeProxyFirstSyncMs: 0,
      podStartMs: 2000,
    });
  });

  it('is validated with the field named, as are spec.images and a host without nft', () => {
    const s = parseScenario(
      header(`  timings: { podStartSeconds: 3 }
  images: [{ match: 'probe:*', nft: '1.0.9', tools: [nft, sh] }]
  hosts: [{ match: '*', nft: none, faults: [kubelet-down] }]
`),
      'ok.yaml',
    );
    expect(s.header.spec.timings).toEqual({ podStartSeconds: 3 });
    expect(s.header.spec.images).toEqual([
      { match: 'probe:*', nft: '1.0.9', tools: ['nft', 'sh'] },
    ]);
    expect(s.header.spec.hosts[0]).toMatchObject({ nft: 'none', faults: ['kubelet-down'] });
    const bad = (): unknown =>
      parseScenario(header('  timings: { podStartSeconds: -1 }\n'), 'bad.yaml');
    expect(bad).toThrow(ScenarioError);
    expect(bad).toThrow(/spec\.timings\.podStartSeconds/);
  });
});

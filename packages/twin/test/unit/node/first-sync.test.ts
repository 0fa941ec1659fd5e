import { describe, expect, it } from 'vitest';
import {
  cluster,
  configText,
  kubeProxyConfigMap,
  kubeProxyPod,
  sh,
  startAll,
  t0,
} from './fixtures.js';

describe('kube-proxy’s first sync', () => {
  it('leaves a window after the start with IPVS cleaned up and no nftables rules yet', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    expect(sh(m, 'a', 'curl -s -o /dev/null -w %{http_code} http://10.96.10.10/').stdout).toBe(
      '200',
    );
    const pod = kubeProxyPod('a');
    const started = m.podStarted(
      'a',
      pod,
      [kubeProxyConfigMap(configText('nftables'))],
      t0 + 10_000,
      {
        deferFirstSync: true,
      },
    );
    expect(started.running).toBe(true);
    const window = t0 + 10_500;
    expect(m.dataplane('a')?.ipvs).toBeUndefined();
    expect(m.dataplane('a')?.nft).toBeUndefined();
    expect(sh(m, 'a', 'nft list table ip kube-proxy', window).exitCode).toBe(1);
    expect(sh(m, 'a', 'curl -sS -m 2 http://10.96.10.10/', window).exitCode).toBe(28);
    // A Service change in the window does not sync it early.
    m.resync([], [], window);
    expect(m.dataplane('a')?.nft).toBeUndefined();
    expect(m.syncNow('a', 'someone-else', t0 + 11_000)).toBe(false);
    expect(m.syncNow('a', pod.metadata.name ?? '', t0 + 11_000)).toBe(true);
    expect(m.dataplane('a')?.nft).toBeDefined();
    expect(m.kubeProxy('a')?.lastSyncAt).toBe(t0 + 11_000);
    expect(m.syncNow('a', pod.metadata.name ?? '', t0 + 12_000)).toBe(false);
  });
});

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

const metric = (text: string, name: string): string[] =>
  text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));

describe('host faults', () => {
  it('kube-proxy-crashloop: exits at start whatever the mode, after cleanup', () => {
    for (const mode of ['iptables', 'ipvs', 'nftables']) {
      const m = cluster([{ match: 'a', faults: ['kube-proxy-crashloop'] }]);
      startAll(m, ['a'], configText(mode));
      const rt = m.kubeProxy('a');
      expect(rt?.phase).toBe('failed');
      expect(m.logs('a', 'kube-proxy-a').at(-1)).toContain('"command failed" err=');
      expect(m.probe('a', { ip: '10.96.10.10', port: 80 }).outcome).toBe('timeout');
      expect(sh(m, 'a', 'curl -sS http://127.0.0.1:10249/metrics')).toMatchObject({
        exitCode: 7,
        stderr:
          "curl: (7) Failed to connect to 127.0.0.1 port 10249 after 0 ms: Couldn't connect to server\n",
      });
    }
  });

  it('kube-proxy-crashloop after an IPVS run: the old IPVS rules keep serving', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    m.setHostFaults('a', ['kube-proxy-crashloop'], t0);
    startAll(m, ['a'], configText('ipvs'));
    expect(m.kubeProxy('a')?.phase).toBe('failed');
    expect(m.probe('a', { ip: '10.96.10.10', port: 80 }).ok).toBe(true);
  });

  it('nftables-sync-failures: the counter grows per sync period and healthz turns 503', () => {
    const m = cluster([{ match: 'a', faults: ['nftables-sync-failures'] }]);
    startAll(m, ['a'], configText('nftables'));
    const at = (ms: number, cmd: string) => sh(m, 'a', cmd, t0 + ms);
    const failures = (ms: number) =>
      metric(
        at(ms, 'curl -s http://127.0.0.1:10249/metrics').stdout,
        'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
      );
    // v1.33+: a CounterVec, so no series until the first failed sync (one syncPeriod in).
    expect(failures(1000)).toEqual([]);
    expect(failures(30_000)).toEqual([
      'kubeproxy_sync_proxy_rules_nftables_sync_failures_total{ip_family="IPv4"} 1',
      'kubeproxy_sync_proxy_rules_nftables_sync_failures_total{ip_family="IPv6"} 1',
    ]);
    expect(failures(125_000)[0]).toMatch(/ 4$/);
    expect(
      at(60_000, 'curl -s -o /dev/null -w "%{http_code}" http://10.0.1.11:10256/healthz').stdout,
    ).toBe('200');
    expect(
      at(95_000, 'curl -s -o /dev/null -w "%{http_code}" http://10.0.1.11:10256/healthz').stdout,
    ).toBe('503');
    expect(JSON.parse(at(95_000, 'curl -s http://10.0.1.11:10256/healthz').stdout)).toMatchObject({
      healthy: false,
    });
    // Rules from the first sync stay; the Service is still reachable.
    expect(m.probe('a', { ip: '10.96.10.10', port: 80 }).ok).toBe(true);
    m.setHostFaults('a', [], t0 + 130_000);
    expect(
      at(131_000, 'curl -s -o /dev/null -w "%{http_code}" http://10.0.1.11:10256/healthz').stdout,
    ).toBe('200');
    expect(failures(200_000)[0]).toMatch(/ 4$/);
  });

  it('nftables-sync-failures on v1.32: the plain counter starts at 0 and sums both proxiers', () => {
    const m = cluster([{ match: 'a', faults: ['nftables-sync-failures'] }], 'v1.32.3');
    startAll(m, ['a'], configText('nftables'), { version: 'v1.32.3' });
    const failures = (ms: number) =>
      metric(
        sh(m, 'a', 'curl -s http://127.0.0.1:10249/metrics', t0 + ms).stdout,
        'kubeproxy_sync_proxy_rules_nftables_sync_failures_total',
      );
    expect(failures(1000)).toEqual(['kubeproxy_sync_proxy_rules_nftables_sync_failures_total 0']);
    expect(failures(65_000)).toEqual(['kubeproxy_sync_proxy_rules_nftables_sync_failures_total 4']);
    expect(
      sh(
        m,
        'a',
        'curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:10256/healthz',
        t0 + 95_000,
      ).stdout,
    ).toBe('503');
  });

  it('ipvs-cleanup-skipped: starting in nftables mode leaves kube-ipvs0 and the IPVS services', () => {
    const m = cluster([{ match: 'a', faults: ['ipvs-cleanup-skipped'] }]);
    startAll(m, ['a'], configText('ipvs'), { version: 'v1.34.1' });
    startAll(m, ['a'], configText('nftables'), { version: 'v1.34.1' });
    expect(m.kubeProxy('a')?.phase).toBe('running');
    expect(sh(m, 'a', 'ip link show kube-ipvs0').exitCode).toBe(0);
    expect(sh(m, 'a', 'ipvsadm -Ln').stdout).toContain('TCP  10.96.10.10:80 rr');
    expect(sh(m, 'a', 'nft list table ip kube-proxy').exitCode).toBe(0);
    expect(sh(m, 'a', 'ipvsadm -Sn').stdout).toContain(
      '-A -t 10.96.10.10:80 -s rr\n-a -t 10.96.10.10:80 -r 10.244.1.5:8080 -m -w 1\n',
    );
    // The sets and the IPVS-only chains stay too; iptables' own cleanup took KUBE-SERVICES.
    expect(sh(m, 'a', 'ipset list -n | head -2').stdout).toBe('KUBE-LOOP-BACK\nKUBE-CLUSTER-IP\n');
    expect(sh(m, 'a', 'iptables-save -t nat | grep -c KUBE-SERVICES').stdout).toBe('0\n');
    // The fault applies on any version (TWIN.md gives it none); without it, v1.33 cleans up.
    const old = cluster([{ match: 'a', faults: ['ipvs-cleanup-skipped'] }]);
    startAll(old, ['a'], configText('ipvs'), { version: 'v1.33.4' });
    startAll(old, ['a'], configText('nftables'), { version: 'v1.33.4' });
    expect(sh(old, 'a', 'ip link show kube-ipvs0').exitCode).toBe(0);
    const clean = cluster();
    startAll(clean, ['a'], configText('ipvs'), { version: 'v1.33.4' });
    startAll(clean, ['a'], configText('nftables'), { version: 'v1.33.4' });
    expect(sh(clean, 'a', 'ip link show kube-ipvs0').exitCode).toBe(1);
    // Manual remediation works.
    expect(sh(m, 'a', 'ipvsadm -C; ip link del kube-ipvs0').exitCode).toBe(0);
    expect(sh(m, 'a', 'ip -j link show kube-ipvs0')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'Device "kube-ipvs0" does not exist.\n',
    });
  });

  it('not-ready: pods on the node stop answering and its addresses go silent', () => {
    const m = cluster([{ match: 'b', faults: ['not-ready'] }]);
    startAll(m, ['a', 'b'], configText('nftables'));
    const r = m.probe('a', { ip: '10.96.10.10', port: 80 });
    expect(r.ok).toBe(true);
    expect(r.answerer).toMatchObject({ kind: 'endpoint', endpoint: { nodeName: 'a' } });
    expect(m.probe('a', { ip: '10.0.1.21', port: 10256 }).outcome).toBe('timeout');
    expect(m.probe('a', { ip: '10.244.2.5', port: 8080 }).outcome).toBe('timeout');
    m.setHostFaults('a', ['not-ready'], t0);
    expect(m.probe('a', { ip: '10.96.10.10', port: 80 }).outcome).toBe('timeout');
  });

  it('kernel-reboot-rollback: uname -r shows the running kernel and kube-proxy checks it', () => {
    const m = cluster([
      { match: 'a', faults: ['kernel-reboot-rollback'], kernel: '5.10.0-28-amd64' },
    ]);
    expect(sh(m, 'a', 'uname -r').stdout).toBe('5.10.0-28-amd64\n');
    expect(m.hostFacts('a')?.nodeKernel).toBe('6.8.0-51-generic');
    const r = m.podStarted(
      'a',
      kubeProxyPod('a'),
      [kubeProxyConfigMap(configText('nftables'))],
      t0,
    );
    expect(r.message).toBe('kube-proxy in nftables mode requires kernel 5.13 or later');
  });
});

import { describe, expect, it } from 'vitest';
import { cluster, configText, service, sh, slice, startAll, t0 } from '../fixtures.js';

const code = (m: ReturnType<typeof cluster>, node: string, url: string): string =>
  sh(m, node, `curl -s -o /dev/null -w '%{http_code}' --max-time 2 ${url}`).stdout;

describe('curl', () => {
  it('answers a ClusterIP through the dataplane, with -s, -sS and -w', () => {
    const m = cluster();
    startAll(m, ['a', 'b'], configText('nftables'));
    const r = sh(m, 'a', 'curl -s http://10.96.10.10/');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^web-\d+ 10\.244\.[12]\.5:8080 on [ab]\n$/);
    expect(r.stderr).toBe('');
    expect(code(m, 'a', 'http://10.96.10.10/')).toBe('200');
    expect(sh(m, 'a', 'curl -sS -o /dev/null -w "%{http_code}\\n" http://10.96.10.10:80/')).toEqual(
      { exitCode: 0, stdout: '200\n', stderr: '' },
    );
  });

  it("prints curl's refused error (exit 7) and timeout errors (exit 28)", () => {
    const m = cluster();
    startAll(m, ['a', 'b'], configText('nftables'));
    expect(sh(m, 'a', 'curl -sS http://10.0.1.21:31081/')).toEqual({
      exitCode: 7,
      stdout: '',
      stderr:
        "curl: (7) Failed to connect to 10.0.1.21 port 31081 after 0 ms: Couldn't connect to server\n",
    });
    expect(sh(m, 'a', 'curl -s http://10.0.1.21:31081/')).toEqual({
      exitCode: 7,
      stdout: '',
      stderr: '',
    });
    expect(sh(m, 'a', "curl -s -o /dev/null -w '%{http_code}' http://10.0.1.21:31081/")).toEqual({
      exitCode: 7,
      stdout: '000',
      stderr: '',
    });
    expect(sh(m, 'a', 'curl -sS --connect-timeout 3 http://10.99.99.99/')).toEqual({
      exitCode: 28,
      stdout: '',
      stderr:
        'curl: (28) Failed to connect to 10.99.99.99 port 80 after 3002 ms: Timeout was reached\n',
    });
    expect(sh(m, 'a', 'curl -sS -m 5 http://10.99.99.99/').stderr).toBe(
      'curl: (28) Connection timed out after 5001 milliseconds\n',
    );
    const noisy = sh(m, 'a', 'curl http://10.0.1.21:31081/');
    expect(noisy.stderr).toMatch(/^ {2}% Total {4}% Received % Xferd {2}Average Speed/);
    expect(
      noisy.stderr.endsWith(
        "--:--:--     0curl: (7) Failed to connect to 10.0.1.21 port 31081 after 0 ms: Couldn't connect to server\n",
      ),
    ).toBe(true);
  });

  it('resolves cluster DNS names only while kube-dns is reachable', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables'));
    expect(sh(m, 'a', 'curl -sS http://web.default.svc.cluster.local/')).toMatchObject({
      exitCode: 6,
      stderr: 'curl: (6) Could not resolve host: web.default.svc.cluster.local\n',
    });
    const dns = { ns: 'kube-system', portName: 'dns', protocol: 'UDP' };
    m.resync(
      [service('web', '10.96.10.10', 80), service('kube-dns', '10.96.0.10', 53, dns)],
      [
        slice('web', [{ ip: '10.244.1.5', node: 'a' }]),
        slice('kube-dns', [{ ip: '10.244.2.2', node: 'b' }], { ...dns, port: 53 }),
      ],
      t0,
    );
    expect(m.probe('a', { ip: '10.96.0.10', port: 53, protocol: 'UDP' }).ok).toBe(true);
    expect(
      sh(m, 'a', 'curl -s -o /dev/null -w "%{http_code}" http://web.default.svc/').stdout,
    ).toBe('200');
  });
});

describe('NodePorts', () => {
  it('secondary address: works in ipvs, fails in nftables by default, works with nodePortAddresses 0.0.0.0/0', () => {
    const m = cluster();
    startAll(m, ['b'], configText('ipvs'));
    expect(code(m, 'a', 'http://192.168.50.21:31080/')).toBe('200');
    startAll(m, ['b'], configText('nftables'));
    expect(code(m, 'a', 'http://10.0.1.21:31080/')).toBe('200');
    expect(code(m, 'a', 'http://192.168.50.21:31080/')).toBe('000');
    expect(sh(m, 'a', 'curl -sS http://192.168.50.21:31080/').stderr).toBe(
      "curl: (7) Failed to connect to 192.168.50.21 port 31080 after 0 ms: Couldn't connect to server\n",
    );
    startAll(m, ['b'], configText('nftables', 'nodePortAddresses: ["0.0.0.0/0"]\n'));
    expect(code(m, 'a', 'http://192.168.50.21:31080/')).toBe('200');
  });

  it('`all` is a keyword from v1.38 and invalid before', () => {
    const m = cluster();
    startAll(m, ['b'], configText('nftables', 'nodePortAddresses: ["all"]\n'), {
      version: 'v1.38.0',
    });
    expect(code(m, 'a', 'http://192.168.50.21:31080/')).toBe('200');
    startAll(m, ['b'], configText('nftables', 'nodePortAddresses: ["all"]\n'), {
      version: 'v1.33.4',
    });
    expect(m.kubeProxy('b')?.error).toBe(
      'failed validate: KubeProxyConfiguration.nodePortAddresses[0]: Invalid value: "all": must be a valid CIDR',
    );
  });

  it('127.0.0.1:<nodePort> fails in nftables and ipvs, works in iptables with route_localnet', () => {
    for (const mode of ['nftables', 'ipvs']) {
      const m = cluster();
      startAll(m, ['a'], configText(mode));
      expect(code(m, 'a', 'http://127.0.0.1:31080/')).toBe('000');
      expect(code(m, 'a', 'http://10.0.1.11:31080/')).toBe('200');
    }
    const m = cluster();
    startAll(m, ['a'], configText('iptables'));
    expect(code(m, 'a', 'http://127.0.0.1:31080/')).toBe('200');
    expect(code(m, 'a', 'http://localhost:31080/')).toBe('200');
  });

  it('a pod without hostNetwork has its own loopback', () => {
    const m = cluster();
    startAll(m, ['a'], configText('iptables'));
    expect(
      m.exec('a', ['curl', '-s', 'http://127.0.0.1:31080/'], t0, { hostNetwork: false }).exitCode,
    ).toBe(7);
  });
});

describe('kube-proxy servers', () => {
  it('healthz on 10256 from any node, metrics on 127.0.0.1:10249 only from the node itself', () => {
    const m = cluster();
    startAll(m, ['a', 'b'], configText('nftables'));
    const body = JSON.parse(
      sh(m, 'b', 'curl -s http://10.0.1.11:10256/healthz', t0 + 2000).stdout,
    ) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'lastUpdated',
      'currentTime',
      'nodeEligible',
      'healthy',
      'status',
    ]);
    expect(body).toMatchObject({
      nodeEligible: true,
      healthy: true,
      status: { IPv4: { healthy: true }, IPv6: { healthy: true } },
    });
    // Healthy: lastUpdated is "now"; the per-family status keeps the start sync (14:02:03).
    expect(String(body['lastUpdated'])).toMatch(/^2025-11-29T14:02:05(\.\d{1,9})?Z$/);
    expect(String(body['currentTime'])).toMatch(/^2025-11-29T14:02:05(\.\d{1,9})?Z$/);
    expect(JSON.stringify(body['status'])).toMatch(/"lastUpdated":"2025-11-29T14:02:03\./);
    const livez = JSON.parse(sh(m, 'b', 'curl -s http://10.0.1.11:10256/livez').stdout) as Record<
      string,
      unknown
    >;
    expect(livez['nodeEligible']).toBeUndefined();
    expect(sh(m, 'a', 'curl -s http://127.0.0.1:10249/proxyMode').stdout).toBe('nftables');
    expect(sh(m, 'b', 'curl -sS http://10.0.1.11:10249/metrics').exitCode).toBe(7);
    startAll(m, ['a'], configText('nftables', 'metricsBindAddress: 0.0.0.0:10249\n'));
    expect(sh(m, 'b', 'curl -s http://10.0.1.11:10249/proxyMode').stdout).toBe('nftables');
  });

  it('exports the metric names of each mode', () => {
    const names = (mode: string, version = 'v1.33.4'): string => {
      const m = cluster();
      startAll(m, ['a'], configText(mode), { version });
      return sh(m, 'a', 'curl -s http://127.0.0.1:10249/metrics').stdout;
    };
    const nft = names('nftables');
    expect(nft).toContain(
      '# HELP kubeproxy_sync_full_proxy_rules_duration_seconds [ALPHA] SyncProxyRules latency in seconds for full resyncs\n',
    );
    expect(nft).not.toContain('iptables_restore_failures_total');
    const ipvs = names('ipvs');
    expect(ipvs).not.toContain('nftables');
    expect(ipvs).not.toContain('iptables_partial_restore');
    const ipt = names('iptables');
    expect(ipt).not.toContain('iptables_partial_restore_failures_total'); // a Vec, never incremented
    for (const n of [
      'kubeproxy_sync_full_proxy_rules_duration_seconds',
      'kubeproxy_iptables_ct_state_invalid_dropped_packets_total',
      'iptables_total{ip_family="IPv4",table="nat"}',
    ])
      expect(ipt).toContain(n);
    const old = names('ipvs', 'v1.32.3');
    expect(old).toContain('\nkubeproxy_sync_proxy_rules_iptables_restore_failures_total 0\n');
    expect(old).not.toContain('ip_family');
    expect(nft).toMatch(
      /\nkubeproxy_sync_proxy_rules_duration_seconds_bucket\{ip_family="IPv4",le="0\.001"\} \d+\n/,
    );
  });
});

describe('reachability', () => {
  it('a ClusterIP works only while the source node programs it', () => {
    const m = cluster();
    expect(m.probe('a', { ip: '10.96.10.10', port: 80 })).toMatchObject({
      ok: false,
      outcome: 'timeout',
    });
    startAll(m, ['a'], configText('nftables'));
    expect(m.probe('a', { ip: '10.96.10.10', port: 80 })).toMatchObject({
      ok: true,
      outcome: 'ok',
    });
    expect(m.probe('a', { ip: '10.96.10.10', port: 81 })).toMatchObject({
      ok: false,
      outcome: 'refused',
    });
    expect(m.probe('b', { ip: '10.96.10.10', port: 80 }).ok).toBe(false);
    m.podStopped('a', 'kube-proxy-a');
    expect(m.probe('a', { ip: '10.96.10.10', port: 80 }).ok).toBe(true);
  });

  it('leftover IPVS state (cleanup skipped) still answers NodePorts nftables would refuse', () => {
    const m = cluster([{ match: 'b', faults: ['ipvs-cleanup-skipped'] }]);
    startAll(m, ['b'], configText('ipvs'), { version: 'v1.34.1' });
    startAll(m, ['b'], configText('nftables'), { version: 'v1.34.1' });
    expect(m.probe('a', { ip: '192.168.50.21', port: 31080 })).toMatchObject({ ok: true });
    expect(m.probe('a', { ip: '192.168.50.21', port: 31080 }).detail).toContain('via ipvs');
    expect(m.probe('b', { ip: '10.96.10.10', port: 80 }).detail).toContain('via nftables');
  });

  it('stale rules after kube-proxy stops send traffic to endpoints that are gone', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables'));
    m.podStopped('a');
    m.resync([], [], t0 + 1000);
    expect(m.probe('a', { ip: '10.96.10.10', port: 80 }).outcome).toBe('timeout');
  });
});

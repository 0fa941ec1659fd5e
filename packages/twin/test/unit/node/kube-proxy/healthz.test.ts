// kube-proxy's /healthz and /livez (pkg/proxy/healthcheck/proxy_health.go) per release, and the
// metrics server's /proxyMode and /healthz (cmd/kube-proxy/app/server.go serveMetrics).
import { describe, expect, it } from 'vitest';
import { cluster, configText, node, sh, startAll, t0 } from '../fixtures.js';

const get = (url: string) => `curl -s ${url}`;

describe('/healthz and /livez', () => {
  it('v1.33+: json.Marshal of ProxyHealth; lastUpdated is now, status keeps the last sync', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    // IPVS resyncs every 30 s: the last one before t0+75s ran at t0+60s (14:03:03).
    expect(sh(m, 'b', get('http://10.0.1.11:10256/healthz'), t0 + 75_000).stdout).toBe(
      '{"lastUpdated":"2025-11-29T14:03:18.000847566Z","currentTime":"2025-11-29T14:03:18.000845653Z","nodeEligible":true,"healthy":true,"status":{"IPv4":{"lastUpdated":"2025-11-29T14:03:03.000231869Z","healthy":true},"IPv6":{"lastUpdated":"2025-11-29T14:03:03.000231869Z","healthy":true}}}',
    );
    expect(sh(m, 'b', get('http://10.0.1.11:10256/livez'), t0 + 75_000).stdout).toBe(
      '{"lastUpdated":"2025-11-29T14:03:18.000847566Z","currentTime":"2025-11-29T14:03:18.000845653Z","healthy":true,"status":{"IPv4":{"lastUpdated":"2025-11-29T14:03:03.000231869Z","healthy":true},"IPv6":{"lastUpdated":"2025-11-29T14:03:03.000231869Z","healthy":true}}}',
    );
  });

  it('nftables resyncs only on change (and hourly): status stays at the start sync', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables'));
    const body = JSON.parse(
      sh(m, 'a', get('http://127.0.0.1:10256/healthz'), t0 + 75_000).stdout,
    ) as {
      status: { IPv4: { lastUpdated: string } };
    };
    expect(body.status.IPv4.lastUpdated).toMatch(/^2025-11-29T14:02:03\.\d+Z$/);
  });

  it('v1.31/v1.32: the %q format with time.Time String(), monotonic reading included', () => {
    const m = cluster([], 'v1.32.3');
    startAll(m, ['a'], configText('ipvs'), { version: 'v1.32.3' });
    expect(sh(m, 'b', get('http://10.0.1.11:10256/healthz'), t0 + 75_000).stdout).toBe(
      '{"lastUpdated": "2025-11-29 14:03:18.000845653 +0000 UTC m=+75.000003512","currentTime": "2025-11-29 14:03:18.000845653 +0000 UTC m=+75.000003512", "nodeEligible": true}',
    );
    expect(sh(m, 'b', get('http://10.0.1.11:10256/livez'), t0 + 75_000).stdout).toBe(
      '{"lastUpdated": "2025-11-29 14:03:18.000845653 +0000 UTC m=+75.000003512","currentTime": "2025-11-29 14:03:18.000845653 +0000 UTC m=+75.000003512"}',
    );
  });

  it('503 on /healthz (not /livez) while the Node is deleted or tainted by the autoscaler', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables'));
    const tainted = node('a', '10.0.1.11');
    tainted['spec'] = { taints: [{ key: 'ToBeDeletedByClusterAutoscaler', effect: 'NoSchedule' }] };
    m.setNode(tainted);
    const code = (path: string) =>
      sh(m, 'a', `curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:10256${path}`).stdout;
    expect(code('/healthz')).toBe('503');
    expect(code('/livez')).toBe('200');
    const body = JSON.parse(sh(m, 'a', get('http://127.0.0.1:10256/healthz')).stdout) as Record<
      string,
      unknown
    >;
    // Not a proxier problem: healthy stays true, lastUpdated is the last update, not now.
    expect(body).toMatchObject({ nodeEligible: false, healthy: true });
    expect(body['lastUpdated']).toMatch(/^2025-11-29T14:02:03\./);
    const deleting = node('a', '10.0.1.11');
    deleting.metadata.deletionTimestamp = '2025-11-29T14:02:03Z';
    m.setNode(deleting);
    expect(code('/healthz')).toBe('503');
    m.setNode(node('a', '10.0.1.11'));
    expect(code('/healthz')).toBe('200');
  });

  it('headers as net/http writes them; probes count into kubeproxy_proxy_healthz_total', () => {
    const m = cluster();
    startAll(m, ['a'], configText('nftables'));
    const r = sh(m, 'a', 'curl -si http://127.0.0.1:10256/healthz');
    const body = r.stdout.slice(r.stdout.indexOf('\r\n\r\n') + 4);
    expect(r.stdout.split('\r\n').slice(0, 6)).toEqual([
      'HTTP/1.1 200 OK',
      'Content-Type: application/json',
      'X-Content-Type-Options: nosniff',
      'Date: Sat, 29 Nov 2025 14:02:04 GMT',
      `Content-Length: ${body.length}`,
      '',
    ]);
    expect(body.startsWith('{"lastUpdated":"2025-11-29T14:02:04.')).toBe(true);
    sh(m, 'a', get('http://127.0.0.1:10256/livez'));
    const text = sh(m, 'a', get('http://127.0.0.1:10249/metrics')).stdout;
    expect(text).toContain(
      '# HELP kubeproxy_proxy_healthz_total [ALPHA] Cumulative proxy healthz HTTP status\n# TYPE kubeproxy_proxy_healthz_total counter\nkubeproxy_proxy_healthz_total{code="200"} 1\n',
    );
    expect(text).toContain('\nkubeproxy_proxy_livez_total{code="200"} 1\n');
    expect(sh(m, 'a', get('http://127.0.0.1:10256/metrics')).stdout).toBe('404 page not found\n');
  });
});

describe('the metrics server', () => {
  it('/proxyMode: the mode name, text/plain, no trailing newline', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    expect(sh(m, 'a', get('http://127.0.0.1:10249/proxyMode'))).toEqual({
      exitCode: 0,
      stdout: 'ipvs',
      stderr: '',
    });
    expect(sh(m, 'a', 'curl -si http://127.0.0.1:10249/proxyMode').stdout).toBe(
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nDate: Sat, 29 Nov 2025 14:02:04 GMT\r\nContent-Length: 4\r\n\r\nipvs',
    );
    expect(sh(m, 'a', get('http://127.0.0.1:10249/healthz')).stdout).toBe('ok');
  });

  it('/metrics: promhttp’s content type, chunked for a body past 2 KiB', () => {
    const m = cluster();
    startAll(m, ['a'], configText('ipvs'));
    const get = sh(m, 'a', 'curl -si http://127.0.0.1:10249/metrics').stdout;
    expect(get.slice(0, get.indexOf('\r\n\r\n') + 4)).toBe(
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8; escaping=underscores\r\nDate: Sat, 29 Nov 2025 14:02:04 GMT\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    // HEAD is never chunked; past the buffer its length is unknown, so neither header is sent.
    expect(sh(m, 'a', 'curl -sI http://127.0.0.1:10249/metrics').stdout).toBe(
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8; escaping=underscores\r\nDate: Sat, 29 Nov 2025 14:02:04 GMT\r\n\r\n',
    );
    const old = cluster([], 'v1.32.3');
    startAll(old, ['a'], configText('ipvs'), { version: 'v1.32.3' });
    expect(sh(old, 'a', 'curl -sI http://127.0.0.1:10249/metrics').stdout).toContain(
      'Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n',
    );
  });
});

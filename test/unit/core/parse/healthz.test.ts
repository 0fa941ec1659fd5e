import { describe, expect, it } from 'vitest';
import { parseHealthz } from '../../../../src/core/parse/healthz.js';

describe('parseHealthz', () => {
  it('reads the newer body with per-family status (facts §7)', () => {
    const body =
      '{"lastUpdated":"2026-01-19T10:32:02.137844334Z","currentTime":"2026-01-19T10:32:02.137830396Z","nodeEligible":true,"healthy":true,"status":{"IPv4":{"lastUpdated":"2026-01-19T10:32:02.137844334Z","healthy":true},"IPv6":{"lastUpdated":"2026-01-19T10:32:02.137844334Z","healthy":false}}}';
    expect(parseHealthz(body, 200)).toEqual({
      ok: true,
      value: {
        statusCode: 200,
        nodeEligible: true,
        healthy: true,
        lastUpdated: '2026-01-19T10:32:02.137844334Z',
        currentTime: '2026-01-19T10:32:02.137830396Z',
        families: {
          IPv4: { healthy: true, lastUpdated: '2026-01-19T10:32:02.137844334Z' },
          IPv6: { healthy: false, lastUpdated: '2026-01-19T10:32:02.137844334Z' },
        },
      },
    });
  });

  it('reads the older body (proxy_health.go’s Fprintf with Go time strings)', () => {
    const body =
      '{"lastUpdated": "2024-03-01 10:00:00.1 +0000 UTC m=+12.5","currentTime": "2024-03-01 10:00:31.2 +0000 UTC m=+43.6", "nodeEligible": false}';
    expect(parseHealthz(body, 503)).toEqual({
      ok: true,
      value: {
        statusCode: 503,
        nodeEligible: false,
        lastUpdated: '2024-03-01 10:00:00.1 +0000 UTC m=+12.5',
        currentTime: '2024-03-01 10:00:31.2 +0000 UTC m=+43.6',
        families: {},
      },
    });
  });

  it('reads /livez, which has no nodeEligible', () => {
    const r = parseHealthz('{"lastUpdated": "x","currentTime": "y"}', 200);
    expect(r.ok && r.value.nodeEligible).toBeUndefined();
  });

  it('refuses what is not a kube-proxy health body', () => {
    expect(parseHealthz('ok', 200).ok).toBe(false);
    expect(parseHealthz('', 200)).toEqual({ ok: false, error: 'kube-proxy health: empty output' });
    expect(parseHealthz('{"status":"ok"}', 200)).toEqual({
      ok: false,
      error: 'kube-proxy health: not a kube-proxy health body',
    });
  });
});

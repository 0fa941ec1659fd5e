// Service field selectors over HTTP follow the version the twin serves: spec.type and
// spec.clusterIP from v1.31 (kubernetes#123905), a 400 before.
import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { startHarness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function listServices(
  harness: Harness,
  fieldSelector: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const query = new URLSearchParams({ fieldSelector });
  const res = await fetch(`${harness.url}/api/v1/services?${query.toString()}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('Service field selectors', () => {
  it('select on spec.type and spec.clusterIP when the twin serves v1.31 or later', async () => {
    h = await startHarness();
    const all = await fetch(`${h.url}/api/v1/services`);
    const items = ((await all.json()) as { items: { spec: { type: string; clusterIP: string } }[] })
      .items;
    const byType = await listServices(h, 'spec.type=ClusterIP');
    expect(byType.status).toBe(200);
    expect((byType.body['items'] as unknown[]).length).toBe(
      items.filter((s) => s.spec.type === 'ClusterIP').length,
    );
    const ip = items[0]?.spec.clusterIP ?? '';
    expect(ip).not.toBe('');
    const byIp = await listServices(h, `spec.clusterIP=${ip}`);
    expect(byIp.status).toBe(200);
    expect(byIp.body['items']).toHaveLength(1);
  });

  it('are rejected with 400 when the twin serves v1.30', async () => {
    h = await startHarness({ kubernetesVersion: 'v1.30.14' });
    const r = await listServices(h, 'spec.type=NodePort');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: 'field label not supported: spec.type',
    });
  });
});

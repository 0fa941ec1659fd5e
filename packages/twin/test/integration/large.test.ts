// Loads the generated 5,000-node scenario and pages through it as kubectl and informers do.
// Deliberately no timing assertions: this checks correctness at scale, not speed.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../src/index.js';
import { resourceFor, startTwin } from '../../src/index.js';

let twin: Twin;
let core: CoreV1Api;

beforeAll(async () => {
  // Paging is what this tests; the kube-proxy pods of 5,000 nodes are the bench's business.
  twin = await startTwin({ scenario: 'large-generated', controllers: false });
  const kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  core = kc.makeApiClient(CoreV1Api);
}, 60_000);

afterAll(async () => {
  await twin.close();
});

describe('large generated scenario', () => {
  it('holds the generated objects', () => {
    expect(twin.store.count(resourceFor('nodes'))).toBe(5000);
    expect(twin.store.count(resourceFor('services'))).toBe(20000);
    expect(twin.store.count(resourceFor('endpointslices'))).toBe(20000);
    expect(twin.store.count(resourceFor('services'), 'app-1')).toBe(500);
  });

  it('pages through all nodes 500 at a time', async () => {
    const names = new Set<string>();
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await core.listNode(token ? { limit: 500, _continue: token } : { limit: 500 });
      for (const node of page.items) names.add(node.metadata!.name!);
      token = page.metadata?._continue;
      pages += 1;
    } while (token);
    expect(pages).toBe(10);
    expect(names.size).toBe(5000);
  }, 60_000);

  it('selects a pool by label across pages', async () => {
    const page = await core.listNode({ labelSelector: 'node-pool=pool-c', limit: 500 });
    expect(page.items).toHaveLength(500);
    expect(page.metadata?._continue).toBeFalsy();
    expect(page.items.every((n) => n.status?.nodeInfo?.kernelVersion === '5.4.0-80-generic')).toBe(
      true,
    );
  });

  it('allocates unique ClusterIPs and NodePorts', async () => {
    const services = await core.listServiceForAllNamespaces({});
    expect(services.items).toHaveLength(20000);
    const ips = new Set(services.items.map((s) => s.spec?.clusterIP));
    expect(ips.size).toBe(20000);
    const nodePorts = services.items
      .flatMap((s) => s.spec?.ports?.map((p) => p.nodePort) ?? [])
      .filter(Boolean);
    expect(nodePorts).toHaveLength(2000);
    expect(new Set(nodePorts).size).toBe(2000);
  }, 60_000);
});

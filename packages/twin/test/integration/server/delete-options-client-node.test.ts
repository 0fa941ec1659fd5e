// DeleteOptions through the real client-node 1.4: a DELETE with a body takes its options from the
// body alone (handlers/delete.go decodes the query only for a bodiless DELETE), so a `dryRun`
// query next to a body deletes for real; the write log records the dry run the deletion obeyed.
import { ApiException, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Twin } from '../../../src/index.js';
import { startTwin } from '../../../src/index.js';

let twin: Twin;
let core: CoreV1Api;

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', controllers: false });
  const kc = new KubeConfig();
  kc.loadFromString(twin.kubeconfigYaml());
  core = kc.makeApiClient(CoreV1Api);
});

afterAll(async () => {
  await twin.close();
});

async function configMap(name: string): Promise<void> {
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name }, data: { a: 'b' } },
  });
}

async function exists(name: string): Promise<boolean> {
  try {
    await core.readNamespacedConfigMap({ namespace: 'default', name });
    return true;
  } catch (error) {
    if (error instanceof ApiException && error.code === 404) return false;
    throw error;
  }
}

const logged = (name: string) =>
  twin.stats
    .writes()
    .filter((w) => w.verb === 'delete' && w.name === name)
    .map((w) => ({ dryRun: w.dryRun, code: w.code }));

describe('DeleteOptions from the body or the query', () => {
  it('ignores a dryRun query when the DELETE has a body, as the apiserver does', async () => {
    await configMap('query-dry-run');
    await core.deleteNamespacedConfigMap({
      namespace: 'default',
      name: 'query-dry-run',
      dryRun: 'All',
      body: { propagationPolicy: 'Background' },
    });
    expect(await exists('query-dry-run')).toBe(false);
    expect(logged('query-dry-run')).toEqual([{ dryRun: false, code: 200 }]);
  });

  it('honours dryRun in the body, and a dryRun query on a bodiless DELETE', async () => {
    await configMap('body-dry-run');
    await core.deleteNamespacedConfigMap({
      namespace: 'default',
      name: 'body-dry-run',
      body: { dryRun: ['All'], propagationPolicy: 'Background' },
    });
    await core.deleteNamespacedConfigMap({
      namespace: 'default',
      name: 'body-dry-run',
      dryRun: 'All',
    });
    expect(await exists('body-dry-run')).toBe(true);
    expect(logged('body-dry-run')).toEqual([
      { dryRun: true, code: 200 },
      { dryRun: true, code: 200 },
    ]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from './harness.js';
import { harness } from './harness.js';

let h: Harness;
afterEach(() => h.controllers.stop());

describe("the twin's own writes in managedFields", () => {
  it('records the DaemonSet controller as creator of its pods and the kubelet for their status', async () => {
    h = await harness();
    await h.controllers.settle();
    const pod = h.kubeProxyPods()[0];
    const entries = (pod?.metadata.managedFields ?? []).map((e) => [
      e['manager'],
      e['operation'],
      e['subresource'],
      Object.keys(e['fieldsV1'] as object),
    ]);
    expect(entries).toEqual([
      ['kube-controller-manager', 'Update', undefined, ['f:metadata', 'f:spec']],
      ['kubelet', 'Update', 'status', ['f:status']],
    ]);
  });

  it('leaves objects loaded from the scenario untracked, as objects without managedFields are', async () => {
    h = await harness();
    await h.controllers.settle();
    expect(h.ds().metadata.managedFields).toBeUndefined();
  });
});

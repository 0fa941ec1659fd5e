import { describe, expect, it } from 'vitest';
import { buildCheckContext } from '../../../src/checks/context.js';
import { kubeadmDaemonSet, snapshotOf } from '../../fixtures/kube.js';

function withImage(image: string | undefined) {
  const ds = kubeadmDaemonSet(['--v=2']);
  const container = ds.spec!.template!.spec!.containers[0]!;
  if (image === undefined) delete container.image;
  else container.image = image;
  return ds;
}

describe('buildCheckContext', () => {
  it('reads kube-proxy’s version from its image tag once', () => {
    const ctx = buildCheckContext(snapshotOf({ kubernetesVersion: 'v1.34.1' }));
    expect(ctx.kubeProxyVersion).toMatchObject({
      from: 'image',
      version: { major: 1, minor: 33, patch: 4 },
      evidence: 'image registry.k8s.io/kube-proxy:v1.33.4',
    });
  });

  it('falls back to the cluster version, saying why, and gives up without either', () => {
    const untagged = buildCheckContext(
      snapshotOf({ kubernetesVersion: 'v1.31.2', kubeSystemDaemonSets: [withImage(undefined)] }),
    );
    expect(untagged.kubeProxyVersion).toMatchObject({
      from: 'cluster',
      evidence: 'cluster version v1.31.2, as the kube-proxy image tag is not available',
    });
    const neither = buildCheckContext(
      snapshotOf({ kubernetesVersion: 'unknown', kubeSystemDaemonSets: [withImage('kp:latest')] }),
    );
    expect(neither.kubeProxyVersion).toBeUndefined();
  });

  it('parses the kube-proxy container’s flags, none without a DaemonSet', () => {
    const ctx = buildCheckContext(snapshotOf());
    expect(ctx.kubeProxyFlags.get('config')).toBe('/var/lib/kube-proxy/config.conf');
    expect(buildCheckContext(snapshotOf({ kubeSystemDaemonSets: [] })).kubeProxyFlags.size).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { imageTag, imageTagVersion } from '../../../../src/core/parse/image-tag.js';

describe('imageTag', () => {
  it('reads the tag past registry ports and digests', () => {
    expect(imageTag('registry.k8s.io/kube-proxy:v1.33.4')).toBe('v1.33.4');
    expect(imageTag('registry.local:5000/kube-proxy')).toBeUndefined();
    expect(imageTag('registry.local:5000/kube-proxy:v1.32.1@sha256:abc')).toBe('v1.32.1');
    expect(imageTag('kube-proxy@sha256:abc')).toBeUndefined();
  });

  it('keeps tags that are not versions, for the EKS add-on version and the VPC CNI', () => {
    expect(imageTag('localhost:5000/kube-proxy')).toBeUndefined();
    expect(imageTag('registry.k8s.io/kube-proxy:latest')).toBe('latest');
    expect(imageTag('eks/kube-proxy:v1.33.0-eksbuild.2')).toBe('v1.33.0-eksbuild.2');
    expect(imageTag('')).toBeUndefined();
  });
});

describe('imageTagVersion', () => {
  it('reads kube-proxy images as kubeadm and EKS ship them', () => {
    expect(imageTagVersion('registry.k8s.io/kube-proxy:v1.33.4')).toMatchObject({
      major: 1,
      minor: 33,
      patch: 4,
    });
    expect(
      imageTagVersion(
        '602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/kube-proxy:v1.33.0-eksbuild.2',
      ),
    ).toMatchObject({ major: 1, minor: 33, patch: 0 });
  });

  it('ignores digests, ports and tags that are not versions', () => {
    expect(imageTagVersion('localhost:5000/kube-proxy')).toBeUndefined();
    expect(imageTagVersion('registry.k8s.io/kube-proxy:latest')).toBeUndefined();
    expect(imageTagVersion('registry.k8s.io/kube-proxy@sha256:abc')).toBeUndefined();
    expect(imageTagVersion('registry.k8s.io/kube-proxy:v1.31.2@sha256:abc')).toMatchObject({
      minor: 31,
    });
    expect(imageTagVersion('')).toBeUndefined();
  });
});

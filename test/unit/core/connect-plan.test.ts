// What connect creates and the kubeconfig entry it writes, as pure data: the RBAC is
// rbac-manifest's (deploy/rbac.yaml's source), the probes Namespace is Pod Security privileged,
// and the kubeconfig entry is a bearer token with the CA, other entries kept, reruns identical.
import { describe, expect, it } from 'vitest';
import { connectObjects, withKubeconfigEntry } from '../../../src/core/connect-plan.js';
import { defaultRbacTarget, rbacObjects } from '../../../src/core/rbac-manifest.js';

describe('connectObjects', () => {
  it('creates the Namespaces first, the RBAC of deploy/rbac.yaml, and the token Secret last', () => {
    const objects = connectObjects(defaultRbacTarget);
    expect(objects[0]?.kind).toBe('Namespace');
    expect(objects.at(-1)).toMatchObject({
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: { annotations: { 'kubernetes.io/service-account.name': 'proxy-migrate' } },
    });
    const rbac = objects.filter((o) => o.apiVersion === 'rbac.authorization.k8s.io/v1');
    expect(rbac.map(({ metadata, ...rest }) => ({ ...rest, name: metadata.name }))).toEqual(
      rbacObjects(defaultRbacTarget).map(({ object: { metadata, ...rest } }) => ({
        ...rest,
        name: metadata.name,
      })),
    );
    const probes = objects.find((o) => o.metadata.name === 'proxy-migrate-probes');
    expect(probes?.metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'privileged',
    });
  });
});

describe('withKubeconfigEntry', () => {
  const endpoint = { server: 'https://api.example:6443', certificateAuthorityData: 'Q0E=' };

  it('writes a token user, the CA and a context, and keeps other entries', () => {
    const existing = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'other', cluster: { server: 'https://other' } }],
      users: [{ name: 'other', user: { token: 'x' } }],
      contexts: [{ name: 'other', context: { cluster: 'other', user: 'other' } }],
      'current-context': 'other',
    };
    const next = withKubeconfigEntry(existing, 'prod', endpoint, 'tok', 'proxy-migrate');
    expect(next.clusters).toEqual([
      { name: 'other', cluster: { server: 'https://other' } },
      { name: 'prod', cluster: { server: endpoint.server, 'certificate-authority-data': 'Q0E=' } },
    ]);
    expect(next.users?.find((u) => u.name === 'prod-proxy-migrate')?.user).toEqual({
      token: 'tok',
    });
    expect(next['current-context']).toBe('other');
    // A rerun with the same inputs is the same file.
    expect(withKubeconfigEntry(next, 'prod', endpoint, 'tok', 'proxy-migrate')).toEqual(next);
  });

  it('skips TLS verification only when asked and no CA is known', () => {
    const insecure = withKubeconfigEntry(
      undefined,
      'dev',
      { server: 'http://127.0.0.1:1', insecureSkipTlsVerify: true },
      'tok',
      'ns',
    );
    expect(insecure.clusters?.[0]?.cluster).toEqual({
      server: 'http://127.0.0.1:1',
      'insecure-skip-tls-verify': true,
    });
    const both = withKubeconfigEntry(
      undefined,
      'dev',
      { ...endpoint, insecureSkipTlsVerify: true },
      'tok',
      'ns',
    );
    expect(both.clusters?.[0]?.cluster).not.toHaveProperty('insecure-skip-tls-verify');
  });
});

// The tokens controller and the deploy kinds through the real kubectl: a
// kubernetes.io/service-account-token Secret gets its token once its ServiceAccount exists, goes
// with the ServiceAccount, and RBAC, NetworkPolicy and admission-policy objects are validated as
// the apiserver validates them.
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../src/testing/wait.js';
import type { LiveTwin } from './live-twin.js';
import { startLiveTwin } from './live-twin.js';

let live: LiveTwin | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

const tokenSecret = `apiVersion: v1
kind: Secret
metadata:
  name: bot-token
  namespace: default
  annotations:
    kubernetes.io/service-account.name: bot
type: kubernetes.io/service-account-token
`;

interface Secret {
  metadata: { annotations?: Record<string, string>; uid: string };
  data?: Record<string, string>;
}

describe('service-account tokens', () => {
  it('fills the token, namespace and uid annotation, and deletes the Secret with its account', async () => {
    live = await startLiveTwin();
    const twin = live;
    expect((await twin.kubectl('-n', 'default', 'create', 'serviceaccount', 'bot')).code).toBe(0);
    const sa = JSON.parse(
      (await twin.kubectl('-n', 'default', 'get', 'sa', 'bot', '-o', 'json')).stdout,
    ) as { metadata: { uid: string } };
    expect((await twin.kubectlWithFile('secret.yaml', tokenSecret, 'create')).code).toBe(0);
    const secret = await eventually('the token', async () => {
      const r = await twin.kubectl('-n', 'default', 'get', 'secret', 'bot-token', '-o', 'json');
      const s = JSON.parse(r.stdout) as Secret;
      return s.data?.['token'] === undefined ? undefined : s;
    });
    expect(secret.metadata.annotations?.['kubernetes.io/service-account.uid']).toBe(
      sa.metadata.uid,
    );
    expect(Buffer.from(secret.data?.['namespace'] ?? '', 'base64').toString()).toBe('default');
    // No root CA on a plain-http twin, as a controller manager without --root-ca-file.
    expect(secret.data?.['ca.crt']).toBeUndefined();
    const jwt = Buffer.from(secret.data?.['token'] ?? '', 'base64').toString();
    const [, payload] = jwt.split('.');
    expect(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString())).toMatchObject({
      iss: 'kubernetes/serviceaccount',
      sub: 'system:serviceaccount:default:bot',
      'kubernetes.io/serviceaccount/secret.name': 'bot-token',
      'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid,
    });

    expect((await twin.kubectl('-n', 'default', 'delete', 'sa', 'bot')).code).toBe(0);
    await eventually('the token Secret gone', async () => {
      const r = await twin.kubectl('-n', 'default', 'get', 'secret', 'bot-token');
      return r.code !== 0 && r.stderr.includes('NotFound') ? true : undefined;
    });
  });

  it('deletes a token Secret whose ServiceAccount does not exist, and refuses one without the annotation', async () => {
    live = await startLiveTwin();
    const twin = live;
    const orphan = tokenSecret.replace('name: bot\n', 'name: nobody\n');
    expect((await twin.kubectlWithFile('orphan.yaml', orphan, 'create')).code).toBe(0);
    await eventually('the orphan token gone', async () => {
      const r = await twin.kubectl('-n', 'default', 'get', 'secret', 'bot-token');
      return r.code !== 0 ? true : undefined;
    });
    const bare = tokenSecret.replace(/ {2}annotations:\n.*\n/, '');
    const refused = await twin.kubectlWithFile('bare.yaml', bare, 'create');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'metadata.annotations[kubernetes.io/service-account.name]: Required value',
    );
  });

  it('turns stringData into data and defaults the type to Opaque', async () => {
    live = await startLiveTwin();
    const twin = live;
    const created = await twin.kubectl(
      '-n',
      'default',
      'create',
      'secret',
      'generic',
      'app',
      '--from-literal=KEY=value',
    );
    expect(created.code).toBe(0);
    const s = JSON.parse(
      (await twin.kubectl('-n', 'default', 'get', 'secret', 'app', '-o', 'json')).stdout,
    ) as Secret & { type: string };
    expect(s.type).toBe('Opaque');
    expect(Buffer.from(s.data?.['KEY'] ?? '', 'base64').toString()).toBe('value');
  });
});

describe('deploy kinds', () => {
  it('validates RBAC, NetworkPolicy and admission policies as the apiserver does', async () => {
    live = await startLiveTwin();
    const twin = live;
    const badRole = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: r, namespace: default }
rules:
  - apiGroups: ['']
    resources: [pods]
    verbs: []
`;
    const role = await twin.kubectlWithFile('role.yaml', badRole, 'create');
    expect(role.stderr).toContain(
      'rules[0].verbs: Required value: verbs must contain at least one value',
    );
    const badBinding = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: b }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: r }
subjects:
  - { kind: ServiceAccount, name: bot }
`;
    const binding = await twin.kubectlWithFile('binding.yaml', badBinding, 'create');
    expect(binding.stderr).toContain('roleRef.kind: Unsupported value: "Role"');
    expect(binding.stderr).toContain('subjects[0].namespace: Required value');
    const badPolicy = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: { name: np, namespace: default }
spec:
  podSelector: {}
  ingress:
    - from: [{}]
      ports: [{ port: 70000 }]
`;
    const np = await twin.kubectlWithFile('np.yaml', badPolicy, 'create');
    expect(np.stderr).toContain('spec.ingress[0].from[0]: Required value: must specify a peer');
    expect(np.stderr).toContain('spec.ingress[0].ports[0].port: Invalid value: 70000');
    const vap = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: { name: p }
spec:
  matchConstraints:
    resourceRules:
      - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [daemonsets] }
  validations:
    - expression: 'object.metadata.name == "x"'
`;
    expect((await twin.kubectlWithFile('vap.yaml', vap, 'create')).code).toBe(0);
    const stored = JSON.parse(
      (await twin.kubectl('get', 'validatingadmissionpolicy', 'p', '-o', 'json')).stdout,
    ) as { spec: { failurePolicy: string; matchConstraints: { matchPolicy: string } } };
    expect(stored.spec.failurePolicy).toBe('Fail');
    expect(stored.spec.matchConstraints.matchPolicy).toBe('Equivalent');
    const badVapBinding = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: { name: pb }
spec:
  policyName: p
  validationActions: [Deny, Warn]
`;
    const vb = await twin.kubectlWithFile('vb.yaml', badVapBinding, 'create');
    expect(vb.stderr).toContain('spec.validationActions: Invalid value');
    expect(vb.stderr).toContain('must not contain both Deny and Warn');
  });
});

// The shipped deployment artefacts render and say what the README promises.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { startTwin } from '@proxy-migrate/twin';
import { describe, expect, it } from 'vitest';
import { renderedInstall } from '../../../scripts/render-install.js';
import { actionPermissions } from '../../../src/core/permissions.js';
import {
  CANARY_NAME,
  LOCK_LEASE_NAME,
  ORIGINAL_DAEMONSET_NAMES,
} from '../../../src/core/permissions.js';
import { defaultRbacTarget } from '../../../src/core/rbac-manifest.js';

const root = join(import.meta.dirname, '../../..');

interface Doc {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: { apiGroups: string[]; resources: string[]; verbs: string[] }[];
  spec?: Record<string, unknown>;
}

describe('deploy/', () => {
  it('renders with `kubectl kustomize deploy`: least-privilege RBAC and a hardened Deployment', async () => {
    const { stdout } = await promisify(execFile)('kubectl', ['kustomize', join(root, 'deploy')], {
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir() },
    });
    const docs = parseAllDocuments(stdout).map((d) => d.toJS() as Doc);
    const byKind = (kind: string): Doc[] => docs.filter((d) => d.kind === kind);
    expect(docs.map((d) => d.kind).sort()).toEqual(
      [
        'ClusterRole',
        'ClusterRoleBinding',
        'ConfigMap',
        'Deployment',
        'Namespace',
        'Namespace',
        'NetworkPolicy',
        'PodDisruptionBudget',
        'Role',
        'Role',
        'RoleBinding',
        'RoleBinding',
        'Service',
        'ServiceAccount',
        'ValidatingAdmissionPolicy',
        'ValidatingAdmissionPolicyBinding',
      ].sort(),
    );
    // The Namespaces come before anything that lives in them.
    expect(docs[0]?.kind).toBe('Namespace');
    expect(docs[1]?.kind).toBe('Namespace');
    const probes = docs.find((d) => d.metadata.name === 'proxy-migrate-probes') as
      (Doc & { metadata: { labels: Record<string, string> } }) | undefined;
    expect(probes?.metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'privileged',
      'pod-security.kubernetes.io/audit': 'privileged',
      'pod-security.kubernetes.io/warn': 'privileged',
    });
    // Cluster-wide: reads, and node label/annotation patches (test/unit/deploy/rbac.test.ts
    // checks every rule against the actions); everything else is in kube-system.
    const clusterRules = byKind('ClusterRole')[0]?.rules ?? [];
    expect(new Set(clusterRules.map((r) => r.resources[0]))).toEqual(
      new Set(['nodes', 'services', 'endpointslices', 'configmaps', 'pods', 'prometheusrules']),
    );
    expect(clusterRules.filter((r) => r.verbs.some((v) => v !== 'list' && v !== 'get'))).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'patch'] },
    ]);
    expect(
      byKind('Role')
        .map((r) => r.metadata.namespace)
        .sort(),
    ).toEqual(['kube-system', 'proxy-migrate-probes']);
    const pdb = byKind('PodDisruptionBudget')[0]!;
    expect(pdb.spec).toMatchObject({ minAvailable: 1 });
    const netpol = byKind('NetworkPolicy')[0]!.spec as {
      policyTypes: string[];
      ingress: { ports: { port: string | number }[] }[];
      egress: { ports: { port: number; protocol: string }[] }[];
    };
    expect(netpol.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(netpol.ingress).toEqual([{ ports: [{ protocol: 'TCP', port: 'http' }] }]);
    const egressPorts = netpol.egress.flatMap((r) => r.ports.map((p) => `${p.protocol}/${p.port}`));
    expect(egressPorts.sort()).toEqual(
      ['UDP/53', 'TCP/53', 'TCP/443', 'TCP/6443', 'TCP/6379', 'TCP/6380'].sort(),
    );

    const deployment = byKind('Deployment')[0]!;
    const pod = (deployment.spec as { template: { spec: Record<string, unknown> } }).template
      .spec as {
      serviceAccountName: string;
      securityContext: { runAsNonRoot: boolean; seccompProfile: { type: string } };
      topologySpreadConstraints: { topologyKey: string; whenUnsatisfiable: string }[];
      terminationGracePeriodSeconds: number;
      containers: {
        args: string[];
        image: string;
        env: { name: string; value: string }[];
        livenessProbe: { httpGet: { path: string } };
        readinessProbe: { httpGet: { path: string } };
        securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean };
        resources: { requests: Record<string, string>; limits: Record<string, string> };
      }[];
    };
    const container = pod.containers[0]!;
    expect(pod.serviceAccountName).toBe('proxy-migrate');
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.args).toEqual(['bot']);
    expect(container.image).toMatch(/^ghcr\.io\/proxy-migrate\/proxy-migrate:/);
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.securityContext.seccompProfile.type).toBe('RuntimeDefault');
    expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory']);
    expect(container.resources.limits['memory']).toBeDefined();
    // The bot cuts over the nodes it runs on: never two replicas on one node.
    expect(pod.topologySpreadConstraints).toContainEqual(
      expect.objectContaining({
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'DoNotSchedule',
      }),
    );
    const grace = Number(container.env.find((e) => e.name === 'SHUTDOWN_GRACE_SECONDS')?.value);
    expect(grace).toBeLessThan(pod.terminationGracePeriodSeconds);
  });

  it('applies with `kubectl apply --dry-run=server -k deploy` against the twin', async () => {
    const twin = await startTwin({ scenario: 'kubeadm-ipvs', controllers: false });
    const home = await mkdtemp(join(tmpdir(), 'pm-deploy-'));
    try {
      const kubeconfig = join(home, 'kubeconfig');
      await twin.writeKubeconfig(kubeconfig);
      const env = { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: kubeconfig };
      const run = (...args: string[]) => promisify(execFile)('kubectl', args, { env });
      // A server dry run stores nothing, so objects in a Namespace the same dry run would create
      // are refused (NotFound), on a real apiserver as here: the Namespaces are applied first.
      await run('apply', '-f', join(root, 'deploy/namespace.yaml'));
      const { stdout } = await run('apply', '--dry-run=server', '-k', join(root, 'deploy'));
      const lines = stdout.trim().split('\n');
      expect(lines.every((l) => l.endsWith('(server dry run)'))).toBe(true);
      for (const object of [
        'namespace/proxy-migrate',
        'serviceaccount/proxy-migrate',
        'role.rbac.authorization.k8s.io/proxy-migrate',
        'clusterrole.rbac.authorization.k8s.io/proxy-migrate',
        'rolebinding.rbac.authorization.k8s.io/proxy-migrate',
        'clusterrolebinding.rbac.authorization.k8s.io/proxy-migrate',
        'deployment.apps/proxy-migrate',
        'poddisruptionbudget.policy/proxy-migrate',
        'networkpolicy.networking.k8s.io/proxy-migrate',
        'validatingadmissionpolicy.admissionregistration.k8s.io/proxy-migrate-kube-system-writes',
        'validatingadmissionpolicybinding.admissionregistration.k8s.io/proxy-migrate-kube-system-writes',
      ])
        expect(lines.some((l) => l.startsWith(`${object} `))).toBe(true);
      // A dry run stores nothing.
      const { stdout: after } = await run('-n', 'proxy-migrate', 'get', 'deploy,sa', '-o', 'name');
      expect(after).not.toContain('proxy-migrate');
      // The single-file form is the same objects.
      const single = await run(
        'apply',
        '--dry-run=server',
        '-f',
        join(root, 'deploy/install.yaml'),
      );
      expect(single.stdout.trim().split('\n').sort()).toEqual([...lines].sort());
    } finally {
      await twin.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('ships deploy/install.yaml as the current rendering of the kustomization', async () => {
    const onDisk = await readFile(join(root, 'deploy/install.yaml'), 'utf8');
    expect(onDisk).toBe(await renderedInstall());
  });

  it('limits the ServiceAccount’s writes in kube-system to the objects the actions name (ValidatingAdmissionPolicy)', async () => {
    interface Policy {
      kind: string;
      metadata: { name: string };
      spec: {
        failurePolicy?: string;
        policyName?: string;
        validationActions?: string[];
        matchConstraints?: {
          namespaceSelector: { matchLabels: Record<string, string> };
          resourceRules: { apiGroups: string[]; resources: string[]; operations: string[] }[];
        };
        matchConditions?: { name: string; expression: string }[];
        validations?: { expression: string; message: string; reason: string }[];
      };
    }
    const [policy, binding] = parseAllDocuments(
      await readFile(join(root, 'deploy/admission-policy.yaml'), 'utf8'),
    ).map((d) => d.toJS() as Policy);
    expect(policy?.kind).toBe('ValidatingAdmissionPolicy');
    expect(binding).toMatchObject({
      kind: 'ValidatingAdmissionPolicyBinding',
      spec: { policyName: policy?.metadata.name, validationActions: ['Deny'] },
    });
    const spec = policy!.spec;
    expect(spec.failurePolicy).toBe('Fail');
    // Where: kube-proxy's namespace; who: the bot's ServiceAccount (as the RBAC binds it).
    expect(spec.matchConstraints?.namespaceSelector.matchLabels).toEqual({
      'kubernetes.io/metadata.name': defaultRbacTarget.kubeProxyNamespace,
    });
    const { name, namespace } = defaultRbacTarget.serviceAccount;
    expect(spec.matchConditions).toEqual([
      expect.objectContaining({
        expression: `request.userInfo.username == 'system:serviceaccount:${namespace}:${name}'`,
      }),
    ]);
    // Every write: all resources, create, update and delete.
    expect(spec.matchConstraints?.resourceRules).toEqual([
      expect.objectContaining({
        apiGroups: ['*'],
        resources: ['*'],
        operations: ['CREATE', 'UPDATE', 'DELETE'],
      }),
    ]);
    // What passes: exactly the (group/resource, name) pairs the actions write in kube-proxy's
    // namespace, read from the action union's permissions.
    const allowed = spec.validations?.[0]?.expression ?? '';
    const written = new Set(
      Object.values(actionPermissions)
        .flat()
        .filter((p) => p.scope === 'kube-proxy-namespace')
        .map((p) => `${p.apiGroup}/${p.resource}`),
    );
    const named = new Set(
      [...allowed.matchAll(/variables\.resource == '([^']+)'/g)].map((m) => m[1]),
    );
    expect(named).toEqual(written);
    for (const object of [CANARY_NAME, LOCK_LEASE_NAME, ...ORIGINAL_DAEMONSET_NAMES])
      expect(allowed).toContain(`'${object}'`);
    const names = new Set([...allowed.matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1]));
    expect(names).toEqual(new Set([CANARY_NAME, LOCK_LEASE_NAME, ...ORIGINAL_DAEMONSET_NAMES]));
    // The original DaemonSet: only UPDATE, and the second rule keeps everything but the update
    // strategy and the affinity as it was.
    expect(allowed).toMatch(
      /request\.name in \['kube-proxy'\] &&\s+request\.operation == 'UPDATE'/,
    );
    const unchanged = spec.validations?.[1]?.expression ?? '';
    for (const field of ['selector', 'template.metadata', 'template.spec.containers'])
      expect(unchanged).toContain(`object.spec.${field} == oldObject.spec.${field}`);
    expect(unchanged).not.toMatch(/updateStrategy|affinity/);
    expect(spec.validations?.map((v) => v.reason)).toEqual(['Forbidden', 'Forbidden']);
  });

  it('has a Redis example: a StatefulSet with AOF and noeviction, marked as an example', async () => {
    const { stdout } = await promisify(execFile)(
      'kubectl',
      ['kustomize', join(root, 'deploy/examples/redis')],
      { env: { PATH: process.env.PATH ?? '', HOME: tmpdir() } },
    );
    const docs = parseAllDocuments(stdout).map(
      (d) => d.toJS() as Doc & { data?: Record<string, string>; metadata: { labels?: object } },
    );
    expect(docs.map((d) => d.kind).sort()).toEqual(
      ['ConfigMap', 'NetworkPolicy', 'Service', 'StatefulSet'].sort(),
    );
    for (const d of docs)
      expect(d.metadata.labels).toMatchObject({ 'proxy-migrate.io/example': 'true' });
    const conf = Object.values(docs.find((d) => d.kind === 'ConfigMap')?.data ?? {}).join('\n');
    expect(conf).toMatch(/^appendonly yes$/m);
    expect(conf).toMatch(/^maxmemory-policy noeviction$/m);
    const readme = await readFile(join(root, 'deploy/examples/redis/README.md'), 'utf8');
    expect(readme).toMatch(/managed Redis/i);
  });

  it('gives every RBAC rule a comment saying why', async () => {
    const lines = (await readFile(join(root, 'deploy/rbac.yaml'), 'utf8')).split('\n');
    const ruleLines = lines
      .map((line, i) => ({ line, i }))
      .filter(({ line }) => /^\s*- apiGroups:/.test(line));
    expect(ruleLines.length).toBeGreaterThan(0);
    for (const { i } of ruleLines) expect(lines[i - 1]).toMatch(/^\s*#/);
  });

  it('has a Slack app manifest with the command, interactivity on /slack/events and minimal scopes', async () => {
    const manifest = parse(
      await readFile(join(root, 'deploy/slack-app-manifest.yaml'), 'utf8'),
    ) as {
      features: { slash_commands: { command: string; url: string }[] };
      oauth_config: { scopes: { bot: string[] } };
      settings: { interactivity: { is_enabled: boolean; request_url: string } };
    };
    expect(manifest.features.slash_commands).toEqual([
      expect.objectContaining({
        command: '/proxy-migrate',
        url: expect.stringMatching(/^https:\/\/.*\/slack\/events$/),
      }),
    ]);
    expect(manifest.settings.interactivity).toMatchObject({
      is_enabled: true,
      request_url: expect.stringMatching(/\/slack\/events$/),
    });
    expect(manifest.oauth_config.scopes.bot.sort()).toEqual([
      'channels:history',
      'chat:write',
      'commands',
      'files:write',
      'groups:history',
      'im:history',
      'im:write',
      'usergroups:read',
    ]);
  });

  it('builds the runtime image from a current LTS Node, non-root, running `proxy-migrate bot`', async () => {
    const dockerfile = await readFile(join(root, 'Dockerfile'), 'utf8');
    const froms = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms)
      expect(Number(/^node:(\d+)/.exec(from ?? '')?.[1])).toBeGreaterThanOrEqual(22);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["proxy-migrate"\]\nCMD \["bot"\]$/m);
  });
});

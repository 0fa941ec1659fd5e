// The shipped deployment artefacts render and say what the README promises.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';

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
        'Role',
        'RoleBinding',
        'Service',
        'ServiceAccount',
      ].sort(),
    );
    // Cluster-wide: reads, and node label/annotation patches (test/unit/deploy/rbac.test.ts
    // checks every rule against the actions); everything else is in kube-system.
    const clusterRules = byKind('ClusterRole')[0]?.rules ?? [];
    expect(clusterRules.map((r) => r.resources[0])).toEqual([
      'nodes',
      'services',
      'endpointslices',
      'configmaps',
      'pods',
      'prometheusrules',
    ]);
    expect(clusterRules.filter((r) => r.verbs.some((v) => v !== 'list' && v !== 'get'))).toEqual([
      { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'get', 'patch'] },
    ]);
    const role = byKind('Role')[0]!;
    expect(role.metadata.namespace).toBe('kube-system');

    const deployment = byKind('Deployment')[0]!;
    const pod = (deployment.spec as { template: { spec: Record<string, unknown> } }).template
      .spec as {
      serviceAccountName: string;
      securityContext: { runAsNonRoot: boolean };
      terminationGracePeriodSeconds: number;
      containers: {
        args: string[];
        image: string;
        env: { name: string; value: string }[];
        livenessProbe: { httpGet: { path: string } };
        readinessProbe: { httpGet: { path: string } };
        securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean };
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
    });
    const grace = Number(container.env.find((e) => e.name === 'SHUTDOWN_GRACE_SECONDS')?.value);
    expect(grace).toBeLessThan(pod.terminationGracePeriodSeconds);
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

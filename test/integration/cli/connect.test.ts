// `proxy-migrate connect` against the twin: the ServiceAccount, the RBAC of deploy/rbac.yaml
// and a token Secret the twin's tokens controller fills; a kubeconfig with that token (no exec
// plugin) with which the real kubectl and `proxy-migrate preflight` work; a rerun that changes
// nothing; and --dry-run, which prints the objects and writes nothing.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceFor, startTwin, type Twin } from '@proxy-migrate/twin';
import { rbacObjects, defaultRbacTarget } from '../../../src/core/rbac-manifest.js';
import { cliIn } from '../../helpers/cli.js';

let twin: Twin;
let dir: string;
let admin: string;

beforeAll(async () => {
  twin = await startTwin({ scenario: 'kubeadm-ipvs', speed: 10 });
  dir = await mkdtemp(join(tmpdir(), 'pm-connect-'));
  admin = join(dir, 'admin.kubeconfig');
  await twin.writeKubeconfig(admin);
});

afterAll(async () => {
  await twin.close();
  await rm(dir, { recursive: true, force: true });
});

describe('proxy-migrate connect', () => {
  it('--dry-run prints every object as YAML and writes nothing', async () => {
    const cli = cliIn(dir);
    const out = join(dir, 'dry.kubeconfig');
    const got = await cli.run(
      'connect',
      'twin-a',
      '--kubeconfig',
      admin,
      '--out',
      out,
      '--probe-namespace',
      'probes-elsewhere',
      '--dry-run',
    );
    expect(got.code).toBe(0);
    const docs = parseAllDocuments(got.stdout).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string } },
    );
    expect(docs.map((d) => `${d.kind} ${d.metadata.namespace ?? ''}/${d.metadata.name}`)).toEqual([
      'Namespace /proxy-migrate',
      'Namespace /probes-elsewhere',
      'ServiceAccount proxy-migrate/proxy-migrate',
      'ClusterRole /proxy-migrate',
      'ClusterRoleBinding /proxy-migrate',
      'Role kube-system/proxy-migrate',
      'RoleBinding kube-system/proxy-migrate',
      // The Role follows the probe namespace.
      'Role probes-elsewhere/proxy-migrate',
      'RoleBinding probes-elsewhere/proxy-migrate',
      'Secret proxy-migrate/proxy-migrate-token',
    ]);
    expect(got.stderr).toContain('Dry run: nothing was written');
    expect(existsSync(out)).toBe(false);
    expect(twin.store.get(resourceFor('namespaces'), undefined, 'proxy-migrate')).toBeUndefined();
  });

  it('sets the cluster up, writes a token kubeconfig kubectl and preflight use, and reruns as a no-op', async () => {
    const cli = cliIn(dir);
    const out = join(dir, 'kube', 'twin-a.yaml');
    const clustersFile = join(dir, 'clusters.yaml');
    await writeFile(clustersFile, '# the bot’s clusters\nclusters: []\n');
    const args = [
      'connect',
      'twin-a',
      '--kubeconfig',
      admin,
      '--context',
      twin.name,
      '--out',
      out,
      '--clusters-file',
      clustersFile,
    ];
    const first = await cli.run(...args);
    expect(first.stderr).not.toContain('rror');
    expect(first.code).toBe(0);
    const lines = first.stdout.trim().split('\n');
    // Every write listed: the scenario already holds proxy-migrate-probes (Pod Security labels
    // and all), which gets connect's managed-by label; the 8 other objects and the kubeconfig
    // are created.
    expect(lines.filter((l) => l.startsWith('created'))).toHaveLength(10);
    expect(lines).toContain('updated   Namespace proxy-migrate-probes');
    expect(lines).toContain('added     cluster twin-a in ' + clustersFile);

    // The RBAC on the cluster is deploy/rbac.yaml's.
    const role = twin.store.get(resourceFor('roles'), 'proxy-migrate-probes', 'proxy-migrate');
    const wanted = rbacObjects(defaultRbacTarget).find(
      (o) => o.object.kind === 'Role' && o.object.metadata.namespace === 'proxy-migrate-probes',
    );
    expect(role?.['rules']).toEqual(wanted?.object.rules);

    // A bearer token, no exec plugin, no client certificate.
    const kubeconfig = parse(await readFile(out, 'utf8')) as {
      users: { name: string; user: Record<string, unknown> }[];
      contexts: { name: string; context: { namespace: string } }[];
    };
    expect(kubeconfig.users).toHaveLength(1);
    expect(Object.keys(kubeconfig.users[0]!.user)).toEqual(['token']);
    expect(String(kubeconfig.users[0]!.user['token']).split('.')).toHaveLength(3);
    expect(kubeconfig.contexts).toEqual([
      expect.objectContaining({
        name: 'twin-a',
        context: expect.objectContaining({ namespace: 'proxy-migrate' }),
      }),
    ]);
    // The token never reaches the terminal.
    expect(first.stdout + first.stderr).not.toContain(String(kubeconfig.users[0]!.user['token']));

    // The real kubectl with that kubeconfig.
    const nodes = await promisify(execFile)('kubectl', ['get', 'nodes', '-o', 'name'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: out },
    });
    expect(nodes.stdout).toContain('node/cp-1');

    // A pre-flight through the clusters file connect wrote (probes in proxy-migrate-probes).
    const clusters = parse(await readFile(clustersFile, 'utf8')) as {
      clusters: { name: string; kubeconfig: string; probe: { namespace: string } }[];
    };
    expect(clusters.clusters).toEqual([
      {
        name: 'twin-a',
        kubeconfig: './kube/twin-a.yaml',
        context: 'twin-a',
        probe: { namespace: 'proxy-migrate-probes' },
      },
    ]);
    expect(await readFile(clustersFile, 'utf8')).toContain('# the bot’s clusters');
    const preflight = await cliIn(dir, { CLUSTERS_FILE: clustersFile }).run(
      'preflight',
      'twin-a',
      '-o',
      'json',
      '--fail-on',
      'none',
    );
    expect(preflight.stderr).not.toMatch(/K8S_|KUBECONFIG_INVALID|PROBE_NAMESPACE_MISSING/);
    expect(preflight.code).toBe(0);
    const report = JSON.parse(preflight.stdout) as {
      cluster: string;
      findings: { check: string; severity: string }[];
    };
    expect(report.cluster).toBe('twin-a');
    // Every node was probed through the probe namespace.
    expect(report.findings.filter((f) => f.check === 'node-probes').map((f) => f.severity)).toEqual(
      ['pass'],
    );

    // Rerun: nothing changes.
    const again = await cli.run(...args);
    expect(again.code).toBe(0);
    const changed = again.stdout
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('unchanged'));
    expect(changed).toEqual([]);
  });
});

// deploy/rbac.yaml grants exactly what the ClusterAction union and the runs' reads need
// (src/core/permissions.ts): a new action without its rule, or a rule nothing uses, fails here.
// The file is rendered from that table (npm run render:install), and must be current.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderedRbac } from '../../../scripts/render-install.js';
import {
  actionPermissions,
  readPermissions,
  type Permission,
} from '../../../src/core/permissions.js';

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}
interface Doc {
  kind: string;
  metadata: { namespace?: string };
  rules?: Rule[];
}

const docs = parseAllDocuments(
  readFileSync(join(import.meta.dirname, '../../../deploy/rbac.yaml'), 'utf8'),
).map((d) => d.toJS() as Doc);

/** One grant per (scope, group, resource, verb, names): rules and permissions exploded alike. */
function grants(
  scope: string,
  r: {
    apiGroups: string[];
    resources: string[];
    verbs: readonly string[];
    resourceNames?: readonly string[];
  },
): string[] {
  const names = [...(r.resourceNames ?? [])].sort().join(',') || '*';
  return r.apiGroups.flatMap((g) =>
    r.resources.flatMap((res) => r.verbs.map((v) => `${scope} ${g}/${res} ${v} ${names}`)),
  );
}

function permissionGrants(p: Permission): string[] {
  // The deploy base: kube-proxy in kube-system, probes in their own namespace.
  const scope =
    p.scope === 'cluster'
      ? 'cluster'
      : p.scope === 'kube-proxy-namespace'
        ? 'kube-system'
        : 'proxy-migrate-probes';
  return grants(scope, {
    apiGroups: [p.apiGroup],
    resources: [p.resource],
    verbs: p.verbs,
    ...(p.resourceNames === undefined ? {} : { resourceNames: p.resourceNames }),
  });
}

describe('deploy/rbac.yaml', () => {
  const rendered = new Set(
    docs.flatMap((d) => {
      if (d.kind === 'ClusterRole') return (d.rules ?? []).flatMap((r) => grants('cluster', r));
      if (d.kind === 'Role')
        return (d.rules ?? []).flatMap((r) => grants(d.metadata.namespace ?? '', r));
      return [];
    }),
  );
  const needed = new Set(
    [...Object.values(actionPermissions).flat(), ...readPermissions].flatMap(permissionGrants),
  );

  it('grants every permission an action or a read needs', () => {
    expect([...needed].filter((g) => !rendered.has(g)).sort()).toEqual([]);
  });

  it('grants nothing no action or read needs', () => {
    expect([...rendered].filter((g) => !needed.has(g)).sort()).toEqual([]);
  });

  it('writes only in kube-system and the probe namespace, except node labels and annotations', () => {
    const clusterWrites = [...rendered].filter(
      (g) => g.startsWith('cluster ') && !/ (list|get) /.test(g),
    );
    expect(clusterWrites).toEqual(['cluster /nodes patch *']);
  });

  it('grants pod create and exec only in the probe namespace, never in kube-system', () => {
    const podWrites = [...rendered].filter((g) => /\/pods(\/exec)? (create|delete) /.test(g));
    expect(podWrites.sort()).toEqual([
      'proxy-migrate-probes /pods create *',
      'proxy-migrate-probes /pods delete *',
      'proxy-migrate-probes /pods/exec create *',
    ]);
  });

  it('is the rendering of src/core/permissions.ts (npm run render:install)', async () => {
    const onDisk = readFileSync(join(import.meta.dirname, '../../../deploy/rbac.yaml'), 'utf8');
    expect(onDisk).toBe(await renderedRbac());
  });

  it('pins update, patch and delete to the objects the bot owns, by name', () => {
    const unpinned = [...rendered].filter(
      (g) =>
        / (update|patch|delete) \*$/.test(g) &&
        !g.startsWith('cluster /nodes') &&
        !g.includes('/pods '),
    );
    expect(unpinned).toEqual([]);
  });
});

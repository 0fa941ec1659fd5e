// deploy/rbac.yaml grants exactly what the ClusterAction union and the runs' reads need
// (src/core/permissions.ts): a new action without its rule, or a rule nothing uses, fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
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
  // The deploy base runs probes in kube-system, kube-proxy's namespace: one Role for both.
  const scope = p.scope === 'cluster' ? 'cluster' : 'kube-system';
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

  it('writes only in kube-system, except node labels and annotations', () => {
    const clusterWrites = [...rendered].filter(
      (g) => g.startsWith('cluster ') && !/ (list|get) /.test(g),
    );
    expect(clusterWrites).toEqual(['cluster /nodes patch *']);
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

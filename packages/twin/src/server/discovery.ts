// API discovery in both forms kubectl understands: aggregated (apidiscovery.k8s.io/v2, two
// requests) and legacy (APIVersions, APIGroupList, APIResourceList), all built from the one table.

import type { ResourceDef } from '../registry/resources.js';
import { groupVersion, groupVersions, resources } from '../registry/resources.js';
import type { JsonObject } from '../apimachinery/types.js';
import { omit } from '../apimachinery/types.js';

function aggregatedResource(def: ResourceDef): JsonObject {
  const entry: JsonObject = {
    resource: def.plural,
    responseKind: { group: def.group, version: def.version, kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: [...def.verbs],
  };
  if (def.shortNames.length > 0) entry['shortNames'] = [...def.shortNames];
  if (def.categories.length > 0) entry['categories'] = [...def.categories];
  const subresources: JsonObject[] = [
    ...def.kindedSubresources.map((sub) => ({
      subresource: sub.name,
      responseKind: { group: sub.group, version: sub.version, kind: sub.kind },
      verbs: [...sub.verbs],
    })),
    ...def.subresources.map((sub) => ({
      subresource: sub,
      responseKind: { group: def.group, version: def.version, kind: def.kind },
      verbs: ['get', 'patch', 'update'],
    })),
  ];
  if (subresources.length > 0) entry['subresources'] = subresources;
  return entry;
}

function aggregatedGroup(group: string): JsonObject {
  const versions = groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => ({
      version: gv.version,
      resources: resources
        .filter((r) => r.group === group && r.version === gv.version)
        .map(aggregatedResource),
      freshness: 'Current',
    }));
  return { metadata: group === '' ? {} : { name: group }, versions };
}

/** `/api` or `/apis` as an APIGroupDiscoveryList (`core` selects `/api`). */
export function aggregatedDiscovery(core: boolean, apiVersion: string): JsonObject {
  const groups = [...new Set(groupVersions().map((gv) => gv.group))].filter(
    (g) => (g === '') === core,
  );
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion,
    metadata: {},
    items: groups.map(aggregatedGroup),
  };
}

export function legacyApiVersions(serverAddress: string): JsonObject {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

export function legacyGroup(group: string): JsonObject {
  const versions = groupVersions()
    .filter((gv) => gv.group === group)
    .map((gv) => ({ groupVersion: groupVersion(gv), version: gv.version }));
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: group,
    versions,
    preferredVersion: versions[0] ?? {},
  };
}

export function legacyGroupList(): JsonObject {
  const groups = [...new Set(groupVersions().map((gv) => gv.group))].filter((g) => g !== '');
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.map((g) => omit(legacyGroup(g), 'kind', 'apiVersion') as JsonObject),
  };
}

export function legacyResourceList(group: string, version: string): JsonObject {
  const list: JsonObject[] = [];
  for (const def of resources.filter((r) => r.group === group && r.version === version)) {
    const entry: JsonObject = {
      name: def.plural,
      singularName: def.singular,
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: [...def.verbs],
    };
    if (def.shortNames.length > 0) entry['shortNames'] = [...def.shortNames];
    if (def.categories.length > 0) entry['categories'] = [...def.categories];
    list.push(entry);
    // Sorted by name as the apiserver lists them: pods/eviction comes before pods/status.
    for (const sub of def.kindedSubresources) {
      list.push({
        name: `${def.plural}/${sub.name}`,
        singularName: '',
        namespaced: def.namespaced,
        group: sub.group,
        version: sub.version,
        kind: sub.kind,
        verbs: [...sub.verbs],
      });
    }
    for (const sub of def.subresources) {
      list.push({
        name: `${def.plural}/${sub}`,
        singularName: '',
        namespaced: def.namespaced,
        kind: def.kind,
        verbs: ['get', 'patch', 'update'],
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: groupVersion({ group, version }),
    resources: list,
  };
}

// ControllerRevisions for DaemonSets (constructHistory/cleanupHistory): one per distinct pod
// template, named `<ds>-<hash>`, holding the template as a `$patch: replace` patch; going back to
// an older template renumbers its revision; unused old ones are pruned past revisionHistoryLimit.

import type { Registry } from '../../registry/registry.js';
import type { ObjectStore } from '../../store/store.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';
import { asNumber, asRecord, asString, cloneJson } from '../../apimachinery/types.js';
import type { Revision } from './spec.js';
import {
  controllerOf,
  ownerReference,
  revisionHashLabel,
  revisionsDef,
  spec,
  templateGenerationAnnotation,
} from '../kube.js';
import { controllerManager } from '../managers.js';

export function ownedRevisions(store: ObjectStore, ds: KubeObject): KubeObject[] {
  const uid = ds.metadata.uid;
  return store
    .list(revisionsDef, {
      namespace: ds.metadata.namespace,
      match: (cr) => controllerOf(cr)?.['uid'] === uid,
    })
    .items.sort((a, b) => asNumber(a['revision']) - asNumber(b['revision']));
}

function newRevision(ds: KubeObject, revision: Revision, number: number): KubeObject {
  const template = cloneJson(asRecord(spec(ds)['template']));
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(asRecord(asRecord(template['metadata'])['labels'])))
    labels[k] = asString(v);
  labels[revisionHashLabel] = revision.hash;
  const metadata: KubeObject['metadata'] = {
    name: `${(ds.metadata.name ?? '').slice(0, 223)}-${revision.hash}`,
    namespace: ds.metadata.namespace ?? 'default',
    labels,
    ownerReferences: [ownerReference(ds)],
  };
  // The real controller copies the DaemonSet's annotations (change-cause included).
  const annotations = { ...ds.metadata.annotations };
  if (revision.generation !== undefined)
    annotations[templateGenerationAnnotation] = revision.generation;
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  const data: JsonObject = { spec: { template: { ...template, $patch: 'replace' } } };
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data, revision: number };
}

/** Makes sure the current template has the newest revision; prunes unused old revisions. */
export function syncRevisions(
  registry: Registry,
  ds: KubeObject,
  revision: Revision,
  liveHashes: ReadonlySet<string>,
): void {
  const owned = ownedRevisions(registry.store, ds);
  const max = owned.reduce((m, cr) => Math.max(m, asNumber(cr['revision'])), 0);
  let current = owned.find((cr) => cr.metadata.labels?.[revisionHashLabel] === revision.hash);
  if (!current) {
    const created = newRevision(ds, revision, max + 1);
    const clash = registry.store.get(
      revisionsDef,
      created.metadata.namespace,
      created.metadata.name ?? '',
    );
    // A revision of that name owned by someone else: a hash collision the twin does not resolve.
    if (clash) return;
    current = registry.create(revisionsDef, created, { manager: controllerManager });
  } else if (asNumber(current['revision']) < max) {
    current = registry.update(revisionsDef, { ...current, revision: max + 1 }, undefined, {
      manager: controllerManager,
    });
  }
  const limit = asNumber(spec(ds)['revisionHistoryLimit'], 10);
  const old = owned.filter(
    (cr) =>
      cr.metadata.uid !== current.metadata.uid &&
      !liveHashes.has(cr.metadata.labels?.[revisionHashLabel] ?? ''),
  );
  for (const cr of old.slice(0, Math.max(0, old.length - limit))) {
    registry.delete(revisionsDef, cr.metadata.namespace, cr.metadata.name ?? '');
  }
}

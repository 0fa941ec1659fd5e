// Lists with the apiserver's query semantics: label/field selectors, limit + continue paging
// from the store's sorted keys, and the list resourceVersion every informer relies on.

import { badRequest, expired } from '../../apimachinery/errors.js';
import type { FieldSelector } from '../../apimachinery/field-selector.js';
import { matchesFields, parseFieldSelector } from '../../apimachinery/field-selector.js';
import type { LabelSelector } from '../../apimachinery/label-selector.js';
import type { Version } from '../../node/versions.js';
import {
  matchesLabels,
  parseLabelSelector,
  SelectorParseError,
} from '../../apimachinery/label-selector.js';
import type { ResourceDef } from '../../registry/resources.js';
import { groupVersion } from '../../registry/resources.js';
import { storedFieldSelector, toView } from '../../registry/event-views.js';
import type { ObjectStore } from '../../store/store.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';

export interface Selection {
  labels: LabelSelector;
  fields: FieldSelector;
}

/**
 * Parses labelSelector and fieldSelector (the fields `served`, the apiserver version, supports);
 * `name` (single-object watch) adds metadata.name.
 */
export function selectionFrom(
  query: URLSearchParams,
  def: ResourceDef,
  served: Version | undefined,
  name?: string,
): Selection {
  try {
    const input = storedFieldSelector(def, query.get('fieldSelector') ?? '');
    const fields = parseFieldSelector(input, def.plural, served);
    if (name !== undefined) fields.push({ field: 'metadata.name', negate: false, value: name });
    return { labels: parseLabelSelector(query.get('labelSelector') ?? ''), fields };
  } catch (error) {
    if (error instanceof SelectorParseError) throw badRequest(error.message);
    throw error;
  }
}

export function isEmptySelection(s: Selection): boolean {
  return s.labels.length === 0 && s.fields.length === 0;
}

export function matches(s: Selection, obj: KubeObject): boolean {
  return matchesLabels(s.labels, obj.metadata.labels) && matchesFields(s.fields, obj);
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

export function encodeContinue(rv: number, lastKey: string): string {
  const token: ContinueToken = { v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

const tooOld =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Decodes a continue token: 400 when it is not one of ours, 410 Expired when compacted away. */
export function decodeContinue(token: string, store: ObjectStore): { rv: number; after: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('invalid continue token: continue key is not valid: illegal base64 data');
  }
  const t = parsed as Partial<ContinueToken> | null;
  if (
    !t ||
    t.v !== 'meta.k8s.io/v1' ||
    typeof t.rv !== 'number' ||
    typeof t.start !== 'string' ||
    !t.start.endsWith('\u0000')
  ) {
    throw badRequest(
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
  if (t.rv < store.compactedResourceVersion) throw expired(tooOld);
  return { rv: t.rv, after: t.start.slice(0, -1) };
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continueToken: string | undefined;
  remaining: number | undefined;
}

export function listObjects(
  store: ObjectStore,
  def: ResourceDef,
  namespace: string | undefined,
  query: URLSearchParams,
  served: Version | undefined,
): ListResult {
  const selection = selectionFrom(query, def, served);
  const limitText = query.get('limit');
  const limit = limitText && /^\d+$/.test(limitText) ? Number(limitText) : undefined;
  const token = query.get('continue');
  const position = token ? decodeContinue(token, store) : undefined;
  const listRv = position?.rv ?? store.resourceVersion;
  const page = store.list(def, {
    namespace,
    after: position?.after,
    limit,
    match: isEmptySelection(selection) ? undefined : (obj) => matches(selection, obj),
  });
  return {
    items: page.items,
    resourceVersion: String(listRv),
    continueToken:
      page.hasMore && page.lastKey !== undefined ? encodeContinue(listRv, page.lastKey) : undefined,
    remaining: page.remaining,
  };
}

export function listBody(def: ResourceDef, result: ListResult): JsonObject {
  const metadata: JsonObject = { resourceVersion: result.resourceVersion };
  if (result.continueToken) metadata['continue'] = result.continueToken;
  if (result.remaining !== undefined) metadata['remainingItemCount'] = result.remaining;
  return {
    kind: `${def.kind}List`,
    apiVersion: groupVersion(def),
    metadata,
    items: result.items.map((item) => toView(def, item)) as unknown as JsonObject[],
  };
}

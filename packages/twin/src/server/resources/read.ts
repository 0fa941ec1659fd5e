// GET on resources: one object, a list (plain or Table), or a watch, for every resource alike.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, notFound, pageNotFound } from '../../apimachinery/errors.js';
import { queryFlag, queryInt, sendJson, wantsTable } from '../http-util.js';
import { listBody, listObjects, selectionFrom } from './list.js';
import type { Version } from '../../node/versions.js';
import type { ResourceTarget } from '../routes.js';
import type { ObjectStore } from '../../store/store.js';
import type { IncludeObject } from '../../printers/table.js';
import { toTable } from '../../printers/table.js';
import type { JsonObject } from '../../apimachinery/types.js';
import { serveWatch } from './watch.js';
import { toView } from '../../registry/event-views.js';

export interface ReadContext {
  store: ObjectStore;
  /** The Kubernetes version served, for the field selectors it supports (undefined: the newest). */
  served: Version | undefined;
  /** Registers an open watch (closing the twin or a watch-drop fault stops it); returns untrack. */
  trackWatch(stop: () => void): () => void;
}

function includeObject(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject');
  if (v === null || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'Object' || v === 'None') return v;
  throw badRequest(
    `includeObject: Unsupported value: "${v}": supported values: "None", "Metadata", "Object"`,
  );
}

export function handleGet(
  ctx: ReadContext,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  t: ResourceTarget,
): void {
  const { def } = t;
  if (t.subresource !== undefined && !def.subresources.includes(t.subresource as 'status'))
    throw pageNotFound();
  const table = wantsTable(req.headers.accept) ? includeObject(query) : undefined;
  if (t.watchPath || queryFlag(query, 'watch')) {
    if (t.subresource !== undefined) throw pageNotFound();
    const stop = serveWatch(req, res, ctx.store, {
      def,
      namespace: t.namespace,
      selection: selectionFrom(query, def, ctx.served, t.name),
      resourceVersion: query.get('resourceVersion') ?? undefined,
      allowBookmarks: queryFlag(query, 'allowWatchBookmarks'),
      timeoutSeconds: queryInt(query, 'timeoutSeconds'),
      table,
    });
    res.on('close', ctx.trackWatch(stop));
    return;
  }
  const now = ctx.store.clock.now();
  if (t.name === undefined) {
    const result = listObjects(ctx.store, def, t.namespace, query, ctx.served);
    const body = table
      ? toTable(def, result.items, {
          include: table,
          now,
          resourceVersion: result.resourceVersion,
          continueToken: result.continueToken,
          remaining: result.remaining,
        })
      : listBody(def, result);
    sendJson(res, 200, body);
    return;
  }
  const obj = ctx.store.get(def, t.namespace, t.name);
  if (!obj) throw notFound({ resource: def.plural, group: def.group, name: t.name });
  const body = table
    ? toTable(def, [obj], {
        include: table,
        now,
        resourceVersion: obj.metadata.resourceVersion ?? '',
      })
    : (toView(def, obj) as unknown as JsonObject);
  sendJson(res, 200, body);
}

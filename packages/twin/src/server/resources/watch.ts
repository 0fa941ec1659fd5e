// Watches: newline-delimited JSON events over a chunked response, resumable from any
// resourceVersion still in the store's history (else one ERROR 410 event, as the apiserver sends),
// with selector transitions turned into ADDED/DELETED like the real watch cache does.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, expired } from '../../apimachinery/errors.js';
import { baseHeaders } from '../http-util.js';
import type { Selection } from './list.js';
import { isEmptySelection, matches } from './list.js';
import type { ResourceDef } from '../../registry/resources.js';
import { groupVersion } from '../../registry/resources.js';
import { toView } from '../../registry/event-views.js';
import type { ChangeEvent, ObjectStore } from '../../store/store.js';
import type { IncludeObject } from '../../printers/table.js';
import { toTable } from '../../printers/table.js';
import type { JsonObject, KubeObject } from '../../apimachinery/types.js';

export interface WatchRequest {
  def: ResourceDef;
  namespace: string | undefined;
  selection: Selection;
  resourceVersion: string | undefined;
  allowBookmarks: boolean;
  timeoutSeconds: number | undefined;
  /** Set when the client asked for Table events (kubectl get -w). */
  table: IncludeObject | undefined;
}

type WireType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** Default watch lifetime when the client sets none; the apiserver picks 30-60 minutes. */
const defaultTimeoutMs = 30 * 60 * 1000;
const bookmarkIntervalMs = 10_000;

function inScope(w: WatchRequest, obj: KubeObject | undefined): boolean {
  if (!obj) return false;
  if (w.def.namespaced && w.namespace !== undefined && obj.metadata.namespace !== w.namespace)
    return false;
  return isEmptySelection(w.selection) || matches(w.selection, obj);
}

/** Maps a store change onto what this watcher should see, honouring selector transitions. */
export function translate(
  w: WatchRequest,
  event: ChangeEvent,
): { type: WireType; object: KubeObject } | undefined {
  if (event.resource.plural !== w.def.plural) return undefined;
  const now = event.type !== 'DELETED' && inScope(w, event.object);
  const before = inScope(w, event.oldObject);
  switch (event.type) {
    case 'ADDED':
      return now ? { type: 'ADDED', object: event.object } : undefined;
    case 'DELETED':
      return inScope(w, event.object) ? { type: 'DELETED', object: event.object } : undefined;
    case 'MODIFIED':
      if (now && before) return { type: 'MODIFIED', object: event.object };
      if (now) return { type: 'ADDED', object: event.object };
      if (before && event.oldObject) {
        const gone = {
          ...event.oldObject,
          metadata: { ...event.oldObject.metadata, resourceVersion: String(event.rv) },
        };
        return { type: 'DELETED', object: gone };
      }
      return undefined;
  }
}

/** Serves one watch until the client leaves, the timeout fires, or `stop` is called. */
export function serveWatch(
  req: IncomingMessage,
  res: ServerResponse,
  store: ObjectStore,
  w: WatchRequest,
): () => void {
  const rvText = w.resourceVersion;
  let backlog: { type: WireType; object: KubeObject }[] = [];
  let expiredRv: number | undefined;
  if (rvText === undefined || rvText === '' || rvText === '0') {
    // No RV: the current state as ADDED events first, like a fresh informer's initial list.
    backlog = store
      .list(w.def, {
        namespace: w.def.namespaced ? w.namespace : undefined,
        match: (o) => inScope(w, o),
      })
      .items.map((object) => ({ type: 'ADDED', object }));
  } else {
    if (!/^\d+$/.test(rvText)) throw badRequest(`invalid resource version: "${rvText}"`);
    const changes = store.changesSince(Number(rvText));
    if (changes === undefined) expiredRv = Number(rvText);
    for (const change of changes ?? []) {
      const out = translate(w, change);
      if (out) backlog.push(out);
    }
  }
  res.writeHead(200, {
    ...baseHeaders,
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
  });
  // Clients (client-node's Watch) resolve once headers arrive; send them before any event.
  res.flushHeaders();
  let first = true;
  const encode = (type: WireType, object: KubeObject | JsonObject): string => {
    if (w.table && type !== 'ERROR' && type !== 'BOOKMARK') {
      const rv = String((object as KubeObject).metadata.resourceVersion ?? '');
      const table = toTable(w.def, [object as KubeObject], {
        include: w.table,
        now: store.clock.now(),
        resourceVersion: rv,
        withColumns: first,
      });
      first = false;
      return `${JSON.stringify({ type, object: table })}\n`;
    }
    const wire =
      type === 'ERROR' || type === 'BOOKMARK' ? object : toView(w.def, object as KubeObject);
    return `${JSON.stringify({ type, object: wire })}\n`;
  };
  let closed = false;
  const timers: NodeJS.Timeout[] = [];
  let unsubscribe = (): void => undefined;
  const stop = (): void => {
    if (closed) return;
    closed = true;
    unsubscribe();
    for (const t of timers) clearInterval(t);
    res.end();
  };
  const bookmark = (): void => {
    if (!w.allowBookmarks || closed) return;
    const object = w.table
      ? {
          kind: 'Table',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { resourceVersion: String(store.resourceVersion) },
          columnDefinitions: [],
          rows: [],
        }
      : {
          kind: w.def.kind,
          apiVersion: groupVersion(w.def),
          metadata: { resourceVersion: String(store.resourceVersion) },
        };
    res.write(encode('BOOKMARK', object));
  };
  if (expiredRv !== undefined) {
    const status = expired(
      `too old resource version: ${expiredRv} (${store.compactedResourceVersion})`,
    ).toStatus();
    res.write(encode('ERROR', status));
    stop();
    return stop;
  }
  for (const e of backlog) res.write(encode(e.type, e.object));
  unsubscribe = store.subscribe((event) => {
    const out = closed ? undefined : translate(w, event);
    if (out) res.write(encode(out.type, out.object));
  });
  const timeoutMs =
    w.timeoutSeconds !== undefined && w.timeoutSeconds > 0
      ? w.timeoutSeconds * 1000
      : defaultTimeoutMs;
  timers.push(
    setTimeout(() => {
      bookmark();
      stop();
    }, timeoutMs),
  );
  if (w.allowBookmarks) timers.push(setInterval(bookmark, bookmarkIntervalMs));
  req.on('close', stop);
  return stop;
}

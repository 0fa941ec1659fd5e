// Maps a request path onto what it names: a discovery document, an admin endpoint, or a resource
// (collection, object or subresource, optionally through the legacy /watch/ prefix).

import type { ResourceDef } from '../registry/resources.js';
import { findResource, groupVersions } from '../registry/resources.js';

export type Route =
  | { kind: 'version' }
  | { kind: 'health' }
  | { kind: 'core-groups' }
  | { kind: 'named-groups' }
  | { kind: 'group'; group: string }
  | { kind: 'group-version'; group: string; version: string }
  | { kind: 'openapi-v3-root' }
  | { kind: 'openapi-v3'; group: string; version: string }
  | { kind: 'admin'; path: string }
  | { kind: 'resource'; target: ResourceTarget }
  | { kind: 'not-found' };

export interface ResourceTarget {
  def: ResourceDef;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
  /** The legacy `/watch/` path prefix was used. */
  watchPath: boolean;
}

function knownGv(group: string, version: string): boolean {
  return groupVersions().some((gv) => gv.group === group && gv.version === version);
}

function resourceRoute(group: string, version: string, rest: string[]): Route {
  const gv = group === '' ? version : `${group}/${version}`;
  let parts = rest;
  const watchPath = parts[0] === 'watch';
  if (watchPath) parts = parts.slice(1);
  let namespace: string | undefined;
  const nsDef = findResource(gv, 'namespaces');
  // namespaces/{ns}/{plural}... is a namespaced resource; namespaces/{name}[/sub] is a Namespace.
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    const inner = findResource(gv, parts[2] ?? '');
    if (inner?.namespaced) {
      namespace = parts[1];
      parts = parts.slice(2);
    } else if (!nsDef || parts.length > 3) {
      return { kind: 'not-found' };
    }
  }
  const [plural, name, subresource, ...extra] = parts;
  const def = findResource(gv, plural ?? '');
  if (!def || extra.length > 0 || name === '' || subresource === '') return { kind: 'not-found' };
  if (namespace !== undefined && !def.namespaced) return { kind: 'not-found' };
  return { kind: 'resource', target: { def, namespace, name, subresource, watchPath } };
}

export function route(pathname: string): Route {
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  if (path === '/version') return { kind: 'version' };
  if (path === '/healthz' || path === '/readyz' || path === '/livez') return { kind: 'health' };
  if (path.startsWith('/healthz/') || path.startsWith('/readyz/') || path.startsWith('/livez/'))
    return { kind: 'health' };
  if (path === '/api') return { kind: 'core-groups' };
  if (path === '/apis') return { kind: 'named-groups' };
  if (path === '/openapi/v3') return { kind: 'openapi-v3-root' };
  if (path === '/openapi/v3/api/v1') return { kind: 'openapi-v3', group: '', version: 'v1' };
  const openapi = /^\/openapi\/v3\/apis\/([^/]+)\/([^/]+)$/.exec(path);
  if (openapi) return { kind: 'openapi-v3', group: openapi[1] ?? '', version: openapi[2] ?? '' };
  if (path === '/twin' || path.startsWith('/twin/'))
    return { kind: 'admin', path: path.slice('/twin'.length) };
  const segments = path.split('/').slice(1).map(decodeURIComponent);
  if (segments[0] === 'api') {
    if (segments[1] !== 'v1') return { kind: 'not-found' };
    if (segments.length === 2) return { kind: 'group-version', group: '', version: 'v1' };
    return resourceRoute('', 'v1', segments.slice(2));
  }
  if (segments[0] === 'apis' && segments[1]) {
    const group = segments[1];
    const version = segments[2];
    if (version === undefined) {
      return groupVersions().some((gv) => gv.group === group)
        ? { kind: 'group', group }
        : { kind: 'not-found' };
    }
    if (!knownGv(group, version)) return { kind: 'not-found' };
    if (segments.length === 3) return { kind: 'group-version', group, version };
    return resourceRoute(group, version, segments.slice(3));
  }
  return { kind: 'not-found' };
}

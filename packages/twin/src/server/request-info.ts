// The Kubernetes verb and resource of an API request, derived as the apiserver's RequestInfo
// does (method, name, `watch`, the /watch/ prefix); faults are scoped and requests counted by them.

import type { ResourceTarget } from './routes.js';

export interface RequestInfo {
  /** get, list, watch, create, update, patch, delete or deletecollection; else the method. */
  verb: string;
  /** The plural, with the subresource as RBAC names it: `pods`, `pods/log`, `nodes/status`. */
  resource: string;
}

const methodVerbs: Readonly<Record<string, string>> = {
  GET: 'get',
  HEAD: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function watchRequested(query: URLSearchParams): boolean {
  // The apiserver decodes `watch` with strconv.ParseBool.
  return ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(query.get('watch') ?? '');
}

export function requestInfo(
  method: string,
  target: Pick<ResourceTarget, 'def' | 'name' | 'subresource' | 'watchPath'>,
  query: URLSearchParams,
): RequestInfo {
  const resource =
    target.subresource === undefined
      ? target.def.plural
      : `${target.def.plural}/${target.subresource}`;
  let verb = methodVerbs[method] ?? method.toLowerCase();
  if (target.watchPath) {
    verb = 'watch';
  } else if (target.name === undefined) {
    // A named GET with watch=true stays `get`, as in the apiserver; only collections turn into it.
    if (verb === 'get') verb = watchRequested(query) ? 'watch' : 'list';
    if (verb === 'delete') verb = 'deletecollection';
  }
  return { verb, resource };
}

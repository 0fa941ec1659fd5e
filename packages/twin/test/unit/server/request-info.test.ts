import { describe, expect, it } from 'vitest';
import { requestInfo } from '../../../src/server/request-info.js';
import { route } from '../../../src/server/routes.js';

function info(method: string, path: string) {
  const url = new URL(path, 'http://twin.invalid');
  const r = route(url.pathname);
  if (r.kind !== 'resource') throw new Error(`not a resource path: ${path}`);
  return requestInfo(method, r.target, url.searchParams);
}

describe('requestInfo maps requests to verbs like the apiserver', () => {
  it.each([
    ['GET', '/api/v1/nodes/cp-1', 'get', 'nodes'],
    ['HEAD', '/api/v1/nodes/cp-1', 'get', 'nodes'],
    ['GET', '/api/v1/nodes?limit=500', 'list', 'nodes'],
    ['GET', '/api/v1/namespaces/kube-system/pods', 'list', 'pods'],
    ['GET', '/api/v1/pods?watch=true', 'watch', 'pods'],
    ['GET', '/api/v1/pods?watch=1', 'watch', 'pods'],
    ['GET', '/api/v1/pods?watch=false', 'list', 'pods'],
    ['GET', '/api/v1/watch/namespaces/default/pods', 'watch', 'pods'],
    ['GET', '/api/v1/watch/namespaces/default/pods/p1', 'watch', 'pods'],
    // A named GET with watch=true stays `get` in RequestInfo.
    ['GET', '/api/v1/namespaces/default/pods/p1?watch=true', 'get', 'pods'],
    ['POST', '/api/v1/namespaces/default/configmaps', 'create', 'configmaps'],
    ['PUT', '/api/v1/namespaces/default/configmaps/c', 'update', 'configmaps'],
    ['PATCH', '/apis/apps/v1/namespaces/kube-system/daemonsets/kube-proxy', 'patch', 'daemonsets'],
    ['DELETE', '/api/v1/namespaces/default/pods/p1', 'delete', 'pods'],
    ['DELETE', '/api/v1/namespaces/default/pods', 'deletecollection', 'pods'],
    ['PUT', '/api/v1/nodes/cp-1/status', 'update', 'nodes/status'],
    ['GET', '/api/v1/namespaces/default/pods/p1/log?follow=true', 'get', 'pods/log'],
    ['GET', '/api/v1/namespaces/default/pods/p1/exec?command=ls', 'get', 'pods/exec'],
    ['POST', '/api/v1/namespaces/default/pods/p1/exec?command=ls', 'create', 'pods/exec'],
    ['OPTIONS', '/api/v1/nodes', 'options', 'nodes'],
  ])('%s %s → %s %s', (method, path, verb, resource) => {
    expect(info(method, path)).toEqual({ verb, resource });
  });
});

// Shared fixtures for the validation tests: a registry with a namespace and a node, valid
// objects to break one field at a time, and the 422 a write throws.
import { createClock } from '../../../../src/clock.js';
import { ApiError } from '../../../../src/apimachinery/errors.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';
import { Registry } from '../../../../src/registry/registry.js';
import { ObjectStore } from '../../../../src/store/store.js';

export function registry(): Registry {
  const r = new Registry(new ObjectStore(createClock()));
  r.seed([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
    { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: {} },
  ]);
  return r;
}

export function daemonSet(extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'agent:1' }] },
      },
      ...extra,
    },
  };
}

export function pod(spec: Record<string, unknown> = {}, name = 'p'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...spec },
  };
}

/** The 422 a write throws: its message and causes as `field: message` lines. */
export function invalid(write: () => unknown): {
  message: string;
  causes: string[];
  status: ApiError;
} {
  try {
    write();
  } catch (error) {
    if (error instanceof ApiError && error.code === 422)
      return {
        message: error.message,
        causes: (error.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message}`),
        status: error,
      };
    throw error;
  }
  throw new Error('expected a 422 Invalid');
}

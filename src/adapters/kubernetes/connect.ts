/**
 * `proxy-migrate connect`'s writes to a target cluster with the operator's own credentials:
 * create each object, or leave it when it is already as wanted, or replace it when not (so a
 * rerun is a no-op and a rerun after an upgrade brings the RBAC up to date); then wait, with a
 * deadline, for the tokens controller to fill the token Secret. Every write is reported through
 * `onWrite` before the next one starts. Tokens never reach a log.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import type { ConnectObject } from '../../core/connect-plan.js';
import { AppError } from '../../errors.js';
import { withDeadline } from '../../core/deadline.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './deadline.js';
import { kubeError } from './errors.js';

export type WriteOutcome = 'created' | 'updated' | 'unchanged';

function describe(o: ConnectObject): string {
  return `${o.kind} ${o.metadata.namespace === undefined ? '' : `${o.metadata.namespace}/`}${o.metadata.name}`;
}

/** The fields connect owns on an object: what is compared, and what a replace writes. */
function owned(o: Record<string, unknown>): Record<string, unknown> {
  const meta = (o['metadata'] ?? {}) as { labels?: object; annotations?: object };
  const out: Record<string, unknown> = {};
  for (const k of ['rules', 'roleRef', 'subjects', 'type']) if (k in o) out[k] = o[k];
  out['labels'] = meta.labels ?? {};
  // client-node reads into model classes whose absent fields are present as undefined: compare
  // as JSON, the way the API server sees both.
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

function ownedOf(want: ConnectObject, live: Record<string, unknown>): Record<string, unknown> {
  const wantOwned = owned(want);
  const liveOwned = owned(live);
  // Labels: only those connect sets; others (kubernetes.io/metadata.name) stay untouched.
  const liveLabels = liveOwned['labels'] as Record<string, string>;
  liveOwned['labels'] = Object.fromEntries(
    Object.keys(wantOwned['labels'] as object).map((k) => [k, liveLabels[k]]),
  );
  return liveOwned;
}

export interface ConnectClient {
  apply(object: ConnectObject): Promise<WriteOutcome>;
  waitForToken(
    namespace: string,
    name: string,
    deadlineMs: number,
  ): Promise<{ token: string; caData?: string }>;
}

export function connectClient(kubeConfig: KubeConfig, cluster: string): ConnectClient {
  const api = KubernetesObjectApi.makeApiClient(kubeConfig);
  // Every call has a deadline: a hung API server cannot hang connect.
  const timed = <T>(what: string, call: Promise<T>): Promise<T> =>
    withDeadline(
      call,
      DEFAULT_REQUEST_TIMEOUT_MS,
      () =>
        new AppError('K8S_TIMEOUT', `Cluster ${cluster}: ${what} timed out.`, {
          remedy: 'Check that the API server is reachable, then run connect again.',
          retryable: true,
          details: { cluster, what },
        }),
    );
  const header = (o: ConnectObject): KubernetesObject & { metadata: { name: string } } => ({
    apiVersion: o.apiVersion,
    kind: o.kind,
    metadata: {
      name: o.metadata.name,
      ...(o.metadata.namespace === undefined ? {} : { namespace: o.metadata.namespace }),
    },
  });
  async function read(o: ConnectObject): Promise<Record<string, unknown> | undefined> {
    try {
      const live = await timed(`read ${describe(o)}`, api.read(header(o)));
      return live as unknown as Record<string, unknown>;
    } catch (error) {
      if ((error as { code?: number }).code === 404) return undefined;
      throw kubeError(error, cluster, `read ${describe(o)}`);
    }
  }
  return {
    async apply(object) {
      const live = await read(object);
      if (live === undefined) {
        try {
          await timed(
            `create ${describe(object)}`,
            api.create(object as KubernetesObject, undefined, undefined, 'proxy-migrate'),
          );
          return 'created';
        } catch (error) {
          throw kubeError(error, cluster, `create ${describe(object)}`);
        }
      }
      if (isDeepStrictEqual(owned(object), ownedOf(object, live))) return 'unchanged';
      const liveMeta = live['metadata'] as Record<string, unknown>;
      const next = {
        ...live,
        ...Object.fromEntries(
          ['rules', 'roleRef', 'subjects'].filter((k) => k in object).map((k) => [k, object[k]]),
        ),
        metadata: {
          ...liveMeta,
          labels: { ...(liveMeta['labels'] as object), ...object.metadata.labels },
          annotations: { ...(liveMeta['annotations'] as object), ...object.metadata.annotations },
        },
      };
      try {
        await timed(
          `update ${describe(object)}`,
          api.replace(next as KubernetesObject, undefined, undefined, 'proxy-migrate'),
        );
        return 'updated';
      } catch (error) {
        throw kubeError(error, cluster, `update ${describe(object)}`);
      }
    },
    async waitForToken(namespace, name, deadlineMs) {
      const deadline = Date.now() + deadlineMs;
      for (;;) {
        const secret = await read({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name, namespace },
        });
        const data = (secret?.['data'] ?? {}) as Record<string, string>;
        if (data['token'] !== undefined && data['token'] !== '') {
          return {
            token: Buffer.from(data['token'], 'base64').toString('utf8'),
            ...(data['ca.crt'] === undefined ? {} : { caData: data['ca.crt'] }),
          };
        }
        if (Date.now() > deadline)
          throw new AppError(
            'K8S_TIMEOUT',
            `Cluster ${cluster}: the token Secret ${namespace}/${name} was not filled within ${Math.round(deadlineMs / 1000)} s.`,
            {
              remedy:
                'Check that kube-controller-manager runs its tokens controller (--controllers includes serviceaccount-token and a --service-account-private-key-file is set), then run connect again.',
              retryable: true,
              details: { cluster, namespace, name },
            },
          );
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
  };
}

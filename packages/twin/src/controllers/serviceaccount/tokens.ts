// The tokens controller (pkg/controller/serviceaccount/tokens_controller.go, 1.33): a Secret of
// type kubernetes.io/service-account-token whose kubernetes.io/service-account.name annotation
// names an existing ServiceAccount gets data.token (a legacy service-account JWT, claims as
// pkg/serviceaccount/legacy.go writes them), data.namespace, data["ca.crt"] when the twin has a
// root CA (it serves plain http, so by default it has none and, like a controller manager without
// --root-ca-file, writes none), and the ServiceAccount's uid annotation. A token Secret whose
// ServiceAccount is gone (by name, or by uid when the annotation has one) is deleted, and so are
// a deleted ServiceAccount's tokens. Since 1.24 (LegacyServiceAccountTokenNoAutoGeneration) it no
// longer creates Secrets for ServiceAccounts on its own: somebody must create the Secret.

import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Clock, Scheduler } from '../../clock.js';
import type { KubeObject } from '../../apimachinery/types.js';
import { asRecord, asString } from '../../apimachinery/types.js';
import type { Registry } from '../../registry/registry.js';
import { resourceFor } from '../../registry/resources.js';
import {
  serviceAccountNameKey,
  serviceAccountTokenType,
  serviceAccountUidKey,
} from '../../registry/validation/secret.js';
import type { ChangeEvent } from '../../store/store.js';
import { controllerManager } from '../managers.js';
import type { ErrorSink } from '../work-queue.js';
import { createWorkQueue } from '../work-queue.js';

export const secretsDef = resourceFor('secrets');
export const serviceAccountsDef = resourceFor('serviceaccounts');

export interface TokensControllerOptions {
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  onError: ErrorSink;
  /** PEM bundle written as ca.crt (kube-controller-manager's --root-ca-file); none by default. */
  rootCA?: string;
}

export interface TokensController {
  stop(): void;
}

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/** One signing key per process, as a controller manager has one --service-account-private-key-file. */
let signingKey: KeyObject | undefined;

/** A legacy token: RS256 over the claims of legacy.go's LegacyClaims, no expiry. */
export function legacyToken(sa: KubeObject, secret: KubeObject): string {
  signingKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const namespace = sa.metadata.namespace ?? '';
  const name = sa.metadata.name ?? '';
  const header = b64url(JSON.stringify({ alg: 'RS256', kid: 'twin' }));
  const claims = b64url(
    JSON.stringify({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': namespace,
      'kubernetes.io/serviceaccount/secret.name': secret.metadata.name ?? '',
      'kubernetes.io/serviceaccount/service-account.name': name,
      'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid ?? '',
      sub: `system:serviceaccount:${namespace}:${name}`,
    }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(signingKey);
  return `${header}.${claims}.${b64url(signature)}`;
}

const isToken = (secret: KubeObject): boolean => secret['type'] === serviceAccountTokenType;
const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

export function startTokensController(opts: TokensControllerOptions): TokensController {
  const { registry, clock } = opts;
  const store = registry.store;
  const b64 = (value: string): string => Buffer.from(value, 'utf8').toString('base64');
  const rootCA = opts.rootCA === undefined ? undefined : b64(opts.rootCA);
  const queue = createWorkQueue(opts.scheduler, () => clock.now(), sync, opts.onError, 'tokens');

  /** The Secret's ServiceAccount, by name and (when the annotation has one) uid. */
  function serviceAccountOf(secret: KubeObject): KubeObject | undefined {
    const annotations = secret.metadata.annotations ?? {};
    const sa = store.get(
      serviceAccountsDef,
      secret.metadata.namespace,
      annotations[serviceAccountNameKey] ?? '',
    );
    const uid = annotations[serviceAccountUidKey] ?? '';
    return sa !== undefined && (uid === '' || uid === sa.metadata.uid) ? sa : undefined;
  }

  function deleteToken(secret: KubeObject): void {
    try {
      registry.delete(secretsDef, secret.metadata.namespace, secret.metadata.name ?? '', {
        ...(secret.metadata.uid === undefined ? {} : { expectedUid: secret.metadata.uid }),
      });
    } catch (error) {
      // NotFound: already gone; Conflict: the uid precondition failed, another Secret now.
      const code = (error as { code?: number }).code;
      if (code !== 404 && code !== 409) throw error;
    }
  }

  function sync(key: string): void {
    const slash = key.indexOf('/');
    const secret = store.get(secretsDef, key.slice(0, slash), key.slice(slash + 1));
    if (secret === undefined || !isToken(secret) || secret.metadata.deletionTimestamp) return;
    const sa = serviceAccountOf(secret);
    if (sa === undefined) {
      deleteToken(secret);
      return;
    }
    // secretUpdateNeeded: a CA that differs, no namespace, no token.
    const data = { ...(asRecord(secret['data']) as Record<string, string>) };
    const needsCA = rootCA !== undefined && data['ca.crt'] !== rootCA;
    const needsNamespace = asString(data['namespace']) === '';
    const needsToken = asString(data['token']) === '';
    if (!needsCA && !needsNamespace && !needsToken) return;
    if (needsCA && rootCA !== undefined) data['ca.crt'] = rootCA;
    if (needsNamespace) data['namespace'] = b64(secret.metadata.namespace ?? '');
    if (needsToken) data['token'] = b64(legacyToken(sa, secret));
    const next: KubeObject = {
      ...secret,
      metadata: {
        ...secret.metadata,
        annotations: {
          ...secret.metadata.annotations,
          [serviceAccountNameKey]: sa.metadata.name ?? '',
          [serviceAccountUidKey]: sa.metadata.uid ?? '',
        },
      },
      data,
    };
    try {
      registry.update(secretsDef, next, secret.metadata.resourceVersion, {
        manager: controllerManager,
      });
    } catch (error) {
      // Conflict: someone else wrote it, and the change event brings it back here.
      const code = (error as { code?: number }).code;
      if (code !== 404 && code !== 409) throw error;
    }
  }

  function onChange(event: ChangeEvent): void {
    if (event.resource === secretsDef) {
      if (isToken(event.object)) queue.add(keyOf(event.object));
    } else if (event.resource === serviceAccountsDef) {
      // A ServiceAccount created, changed or deleted: its namespace's tokens are rechecked.
      for (const secret of store.list(secretsDef, { namespace: event.object.metadata.namespace })
        .items)
        if (
          isToken(secret) &&
          secret.metadata.annotations?.[serviceAccountNameKey] === event.object.metadata.name
        )
          queue.add(keyOf(secret));
    }
  }

  const unsubscribe = store.subscribe(onChange);
  for (const secret of store.list(secretsDef).items) if (isToken(secret)) queue.add(keyOf(secret));
  return {
    stop() {
      unsubscribe();
      queue.stop();
    },
  };
}

/**
 * One connection pool per cluster and credentials, instead of one per request. client-node 2.0
 * builds a new undici Agent for every API call that carries TLS options (every real cluster:
 * there is always a CA), so each request opened its own TCP and TLS connection and left an idle
 * pool, with its own HTTP parser, behind until the garbage collector came: a handshake per
 * request against the API server, and about 40 MiB of native memory over a 9-node probe
 * (bench/preflight). Upstream fixed the same for its https.Agent (kubernetes-client/javascript
 * #2893, `agentCache`) but not for the undici dispatcher, which `createDispatcher` makes and
 * which is private, so the instance's method is wrapped here. The key is the TLS material
 * itself, not the context's name: credentials an exec plugin renews (a new client
 * certificate) get a new pool, and the old one is closed once its requests are done.
 */
import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';

interface Closable {
  close(): Promise<void>;
}

type CreateDispatcher = (cluster: unknown, agentOptions: Record<string, unknown>) => unknown;

const TLS_KEYS = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
] as const;

/** The pool's identity: where it connects and with what, hashed so no secret is kept as text. */
function keyOf(cluster: unknown, agentOptions: Record<string, unknown>): string {
  const c = (cluster ?? {}) as { server?: string; proxyUrl?: string };
  const hash = createHash('sha256');
  hash.update(`${c.server ?? ''}\0${c.proxyUrl ?? ''}\0`);
  for (const name of TLS_KEYS) {
    const value = agentOptions[name];
    hash.update(`${name}=`);
    if (value === undefined) hash.update('-');
    else if (Buffer.isBuffer(value) || typeof value === 'string') hash.update(value);
    else hash.update(JSON.stringify(value));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Makes `kubeConfig` reuse its dispatcher while the cluster and TLS material stay the same. */
export function shareDispatcher<T extends KubeConfig>(kubeConfig: T): T {
  const target = kubeConfig as unknown as { createDispatcher?: CreateDispatcher };
  const original = target.createDispatcher;
  // A client-node without the method (or with another shape) keeps its own behaviour.
  if (typeof original !== 'function') return kubeConfig;
  let current: { key: string; dispatcher: unknown } | undefined;
  target.createDispatcher = (cluster, agentOptions) => {
    const key = keyOf(cluster, agentOptions);
    if (current?.key === key) return current.dispatcher;
    const dispatcher = original.call(kubeConfig, cluster, agentOptions);
    const previous = current?.dispatcher as Partial<Closable> | undefined;
    current = { key, dispatcher };
    // Graceful: requests already on the old pool finish; it then closes its sockets.
    void previous?.close?.().catch(() => undefined);
    return dispatcher;
  };
  return kubeConfig;
}

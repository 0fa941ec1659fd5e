// A kubeconfig for the twin that both kubectl and client-node 1.4 accept over plain http:
// client-node refuses http:// unless insecure-skip-tls-verify is set; kubectl then sends no token.

import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  /** Cluster, user and context are all named after the scenario's metadata.name. */
  name: string;
  server: string;
  token?: string;
  namespace?: string;
}

export function renderKubeconfig(options: KubeconfigOptions): string {
  const { name, server } = options;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: `${name}-admin`, user: { token: options.token ?? 'twin-token' } }],
    contexts: [
      {
        name,
        context: {
          cluster: name,
          user: `${name}-admin`,
          namespace: options.namespace ?? 'default',
        },
      },
    ],
    'current-context': name,
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, options: KubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, renderKubeconfig(options), { mode: 0o600 });
}

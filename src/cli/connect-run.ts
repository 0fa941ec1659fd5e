/**
 * connect's effects: the objects on the cluster (adapters/kubernetes/connect.ts), the kubeconfig
 * file, the clusters-file entry. Every write is listed on stdout as it happens; `--dry-run`
 * prints the objects and touches nothing. The token is written to the kubeconfig file only
 * (mode 0600), never printed or logged.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { isMap, isSeq, parse, parseDocument, stringify } from 'yaml';
import { connectClient } from '../adapters/kubernetes/connect.js';
import { kubeConfigFor } from '../adapters/kubernetes/kubeconfig.js';
import { clusterConfig, defaultKubeconfigs } from '../config.js';
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import {
  connectObjects,
  tokenSecretName,
  withKubeconfigEntry,
  type ClusterEndpoint,
  type ConnectObject,
  type KubeconfigFile,
} from '../core/connect-plan.js';
import type { RbacTarget } from '../core/rbac-manifest.js';
import { AppError, toUserMessage } from '../errors.js';
import { EXIT, type CliIo } from './types.js';

export interface ConnectArgs {
  cluster: string;
  kubeconfig?: string;
  context?: string;
  out: string;
  clustersFile?: string;
  serviceAccount: string;
  namespace: string;
  probeNamespace: string;
  tokenTimeoutMs: number;
  dryRun: boolean;
}

function label(o: ConnectObject): string {
  return `${o.kind} ${o.metadata.namespace === undefined ? '' : `${o.metadata.namespace}/`}${o.metadata.name}`;
}

/** Adds the cluster to the clusters file (comments kept); false when it is already there. */
async function addToClustersFile(
  path: string,
  entry: { name: string; kubeconfig: string; context: string; probeNamespace: string },
): Promise<'added' | 'unchanged'> {
  const text = existsSync(path) ? await readFile(path, 'utf8') : 'clusters: []\n';
  const doc = parseDocument(text);
  const clusters = doc.get('clusters', true);
  if (!isSeq(clusters))
    throw new AppError('CONFIG_INVALID', `${path}: has no clusters list to add to.`, {
      remedy: 'Give --clusters-file a clusters file (README "Configuration"), or leave it out.',
    });
  const existing = clusters.items.find((item) => isMap(item) && item.get('name') === entry.name);
  if (existing !== undefined) {
    if (isMap(existing) && existing.get('kubeconfig') !== entry.kubeconfig)
      throw new AppError(
        'CONFIG_INVALID',
        `${path}: cluster ${entry.name} is already listed with another kubeconfig.`,
        { remedy: 'Edit that entry by hand, or connect under another cluster name.' },
      );
    return 'unchanged';
  }
  clusters.flow = false;
  clusters.items.push(
    doc.createNode({
      name: entry.name,
      kubeconfig: entry.kubeconfig,
      context: entry.context,
      probe: { namespace: entry.probeNamespace },
    }),
  );
  await writeFile(path, doc.toString());
  return 'added';
}

export async function runConnect(io: CliIo, args: ConnectArgs): Promise<number> {
  const target: RbacTarget = {
    serviceAccount: { name: args.serviceAccount, namespace: args.namespace },
    kubeProxyNamespace: KUBE_SYSTEM,
    probeNamespace: args.probeNamespace,
  };
  const objects = connectObjects(target);
  if (args.dryRun) {
    io.stdout.write(objects.map((o) => stringify(o)).join('---\n'));
    io.stderr.write(
      `Dry run: nothing was written. connect would create or update the ${objects.length} objects above, wait for the token, write ${args.out}${args.clustersFile === undefined ? '' : ` and add ${args.cluster} to ${args.clustersFile}`}.\n`,
    );
    return EXIT.ok;
  }
  try {
    const source = clusterConfig({
      name: args.cluster,
      ...(args.kubeconfig === undefined ? {} : { kubeconfig: resolve(args.kubeconfig) }),
      ...(args.context === undefined ? {} : { context: args.context }),
    });
    const kubeConfig = kubeConfigFor(source, defaultKubeconfigs(io.env['KUBECONFIG']));
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null)
      throw new AppError(
        'KUBECONFIG_INVALID',
        `Cluster ${args.cluster}: the context names no cluster.`,
        {
          remedy: 'Check the context in the kubeconfig.',
        },
      );
    const client = connectClient(kubeConfig, args.cluster);
    for (const object of objects) {
      const outcome = await client.apply(object);
      io.stdout.write(`${outcome.padEnd(9)} ${label(object)}\n`);
    }
    io.stderr.write('waiting for the token…\n');
    const { token, caData } = await client.waitForToken(
      args.namespace,
      tokenSecretName(target),
      args.tokenTimeoutMs,
    );
    const sourceCa =
      cluster.caData ??
      (cluster.caFile === undefined
        ? undefined
        : (await readFile(cluster.caFile)).toString('base64'));
    const ca = caData ?? sourceCa;
    const endpoint: ClusterEndpoint = {
      server: cluster.server,
      ...(ca === undefined ? {} : { certificateAuthorityData: ca }),
      ...(ca === undefined && cluster.skipTLSVerify ? { insecureSkipTlsVerify: true } : {}),
      ...(cluster.tlsServerName === undefined ? {} : { tlsServerName: cluster.tlsServerName }),
    };
    if (ca === undefined && !cluster.skipTLSVerify && cluster.server.startsWith('https:'))
      io.stderr.write(
        'warning: no CA is known for this cluster (no ca.crt in the token Secret, none in the kubeconfig); the system roots will be used.\n',
      );
    const out = resolve(args.out);
    const before = existsSync(out) ? await readFile(out, 'utf8') : undefined;
    const next = stringify(
      withKubeconfigEntry(
        before === undefined ? undefined : (parse(before) as KubeconfigFile),
        args.cluster,
        endpoint,
        token,
        args.namespace,
      ),
    );
    if (next === before)
      io.stdout.write(`unchanged kubeconfig ${args.out} (context ${args.cluster})\n`);
    else {
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, next, { mode: 0o600 });
      io.stdout.write(
        `${before === undefined ? 'created' : 'updated'}   kubeconfig ${args.out} (context ${args.cluster})\n`,
      );
    }
    if (args.clustersFile !== undefined) {
      const file = resolve(args.clustersFile);
      // Relative to the clusters file, as the clusters file reads it.
      const rel = relative(dirname(file), out);
      const outcome = await addToClustersFile(file, {
        name: args.cluster,
        kubeconfig: isAbsolute(rel) || rel.startsWith('..') ? out : `./${rel}`,
        context: args.cluster,
        probeNamespace: args.probeNamespace,
      });
      io.stdout.write(`${outcome.padEnd(9)} cluster ${args.cluster} in ${args.clustersFile}\n`);
    }
    return EXIT.ok;
  } catch (error) {
    io.stderr.write(`${toUserMessage(error)}\n`);
    return error instanceof AppError &&
      (error.code === 'KUBECONFIG_INVALID' || error.code === 'CONFIG_INVALID')
      ? EXIT.config
      : EXIT.failure;
  }
}

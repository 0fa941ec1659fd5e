/**
 * One KubeConfig per cluster. client-node applies the *current context's* credentials at request
 * time, so sharing one KubeConfig across clusters and switching contexts could mix credentials;
 * each cluster gets its own object pinned to its context.
 */
import { existsSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { shareDispatcher } from './shared-dispatcher.js';

function invalid(cluster: string, message: string, remedy: string, cause?: unknown): AppError {
  return new AppError('KUBECONFIG_INVALID', `Cluster ${cluster}: ${message}`, { remedy, cause });
}

function loadFiles(cluster: string, paths: readonly string[]): KubeConfig {
  const merged = new KubeConfig();
  paths.forEach((path, i) => {
    const kc = i === 0 ? merged : new KubeConfig();
    try {
      kc.loadFromFile(path);
    } catch (error) {
      throw invalid(
        cluster,
        `cannot load kubeconfig ${path}.`,
        'Check the kubeconfig path in the clusters file (or KUBECONFIG) and that the file is readable YAML.',
        error,
      );
    }
    // Same precedence as kubectl: the first file that defines a name wins.
    if (i > 0) merged.mergeConfig(kc, true);
  });
  return merged;
}

/** Builds the KubeConfig for one configured cluster, pinned to its context. */
export function kubeConfigFor(
  cluster: ClusterConfig,
  defaultKubeconfigs: readonly string[],
): KubeConfig {
  const base = new KubeConfig();
  const paths =
    cluster.kubeconfig !== undefined ? [cluster.kubeconfig] : defaultKubeconfigs.filter(existsSync);
  if (cluster.inCluster || paths.length === 0) {
    try {
      base.loadFromCluster();
    } catch (error) {
      throw invalid(
        cluster.name,
        'no kubeconfig found and not running inside a cluster.',
        'Set kubeconfig (and context) for this cluster in the clusters file, or KUBECONFIG.',
        error,
      );
    }
    return shareDispatcher(base);
  }
  const loaded = loadFiles(cluster.name, paths);
  const contextName = cluster.context ?? loaded.getCurrentContext();
  const context = loaded.getContextObject(contextName);
  if (context === null) {
    const known = loaded.getContexts().map((c) => c.name);
    throw invalid(
      cluster.name,
      `context "${contextName}" is not in ${paths.join(', ')}.`,
      `Use one of: ${known.join(', ') || '(none)'}; set context in the clusters file.`,
    );
  }
  const pinned = new KubeConfig();
  pinned.loadFromOptions({
    clusters: loaded.getClusters(),
    users: loaded.getUsers(),
    contexts: loaded.getContexts(),
    currentContext: context.name,
  });
  return shareDispatcher(pinned);
}

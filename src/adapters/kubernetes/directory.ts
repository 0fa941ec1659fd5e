/** ClusterDirectory over the clusters file: builds each cluster's client once, on first use. */
import type { AppConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { ClusterDirectory, ClusterPort } from '../../ports/cluster.js';
import { KubeCluster, type KubeClusterOptions } from './cluster-client.js';
import { kubeConfigFor } from './kubeconfig.js';

export class KubeClusterDirectory implements ClusterDirectory {
  private readonly clients = new Map<string, ClusterPort>();

  constructor(
    private readonly config: Pick<AppConfig, 'clusters' | 'defaultKubeconfigs'>,
    private readonly options: KubeClusterOptions = {},
  ) {}

  get(clusterName: string): ClusterPort {
    const cached = this.clients.get(clusterName);
    if (cached !== undefined) return cached;
    const cluster = this.config.clusters.find((c) => c.name === clusterName);
    if (cluster === undefined) {
      throw new AppError('UNKNOWN_CLUSTER', `Cluster ${clusterName} is not configured.`, {
        remedy: 'Add it to the clusters file, or check the name.',
      });
    }
    const client = new KubeCluster(
      cluster.name,
      kubeConfigFor(cluster, this.config.defaultKubeconfigs),
      this.options,
    );
    this.clients.set(clusterName, client);
    return client;
  }
}

/** ClusterDirectory over the clusters file: builds each cluster's client once, on first use. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { AppConfig, ClusterConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { ClusterDirectory, ClusterPort } from '../../ports/cluster.js';
import type { NodeShell } from '../../ports/node-shell.js';
import { collectProbePods } from './probe-collector.js';
import { ProbePodShell } from './probe-shell.js';
import { KubeCluster, type KubeClusterOptions } from './cluster-client.js';
import { kubeConfigFor } from './kubeconfig.js';
import { clusterGate } from './rate-limit.js';

export class KubeClusterDirectory implements ClusterDirectory {
  private readonly clients = new Map<string, ClusterPort>();
  private readonly kubeConfigs = new Map<string, KubeConfig>();

  constructor(
    private readonly config: Pick<AppConfig, 'clusters' | 'defaultKubeconfigs'>,
    private readonly logger: Logger,
    private readonly options: KubeClusterOptions = {},
  ) {}

  private cluster(clusterName: string): ClusterConfig {
    const cluster = this.config.clusters.find((c) => c.name === clusterName);
    if (cluster === undefined) {
      throw new AppError('UNKNOWN_CLUSTER', `Cluster ${clusterName} is not configured.`, {
        remedy: 'Add it to the clusters file, or check the name.',
      });
    }
    return cluster;
  }

  private kubeConfig(cluster: ClusterConfig): KubeConfig {
    let kc = this.kubeConfigs.get(cluster.name);
    if (kc === undefined) {
      kc = kubeConfigFor(cluster, this.config.defaultKubeconfigs);
      this.kubeConfigs.set(cluster.name, kc);
    }
    return kc;
  }

  nodeShell(clusterName: string, runId: string): NodeShell {
    const cluster = this.cluster(clusterName);
    const client = this.get(clusterName);
    return new ProbePodShell(this.kubeConfig(cluster), {
      apply: (action) => client.apply(action),
      cluster: cluster.name,
      namespace: cluster.probe.namespace,
      image: cluster.probe.image,
      runId,
      logger: this.logger,
      gate: clusterGate(cluster.name, cluster.apiRateLimit, cluster.execRateLimit),
    });
  }

  collectProbePods(
    clusterName: string,
    keep: (runId: string) => Promise<boolean>,
  ): Promise<number> {
    const cluster = this.cluster(clusterName);
    const client = this.get(clusterName);
    return collectProbePods(this.kubeConfig(cluster), {
      cluster: cluster.name,
      namespace: cluster.probe.namespace,
      apply: (action) => client.apply(action),
      keep,
    });
  }

  get(clusterName: string): ClusterPort {
    const cached = this.clients.get(clusterName);
    if (cached !== undefined) return cached;
    const cluster = this.cluster(clusterName);
    // One gate per cluster in the process: every client and shell of the cluster shares its limit.
    const client = new KubeCluster(cluster.name, this.kubeConfig(cluster), {
      gate: clusterGate(cluster.name, cluster.apiRateLimit, cluster.execRateLimit),
      ...this.options,
    });
    this.clients.set(clusterName, client);
    return client;
  }
}

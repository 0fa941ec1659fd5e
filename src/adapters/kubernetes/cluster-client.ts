/**
 * ClusterPort over @kubernetes/client-node 2.x (undici fetch; Node 22.19 or later).
 * Every request carries a deadline; lists are paged at 500 and restart once if the continue
 * token expires (410), as the API conventions ask.
 */
import {
  AppsV1Api,
  CoordinationV1Api,
  CoreV1Api,
  DiscoveryV1Api,
  CustomObjectsApi,
  VersionApi,
  type ConfigurationOptions,
  type KubeConfig,
} from '@kubernetes/client-node';
import type { ClusterAction } from '../../core/actions.js';
import type {
  KubeConfigMap,
  KubeDaemonSet,
  KubeEndpointSlice,
  KubeLease,
  KubeNode,
  KubePod,
  KubeService,
  PrometheusRule,
} from '../../core/kube.js';
import type { ApplyOptions, ApplyResult, ClusterPort, ListProgress } from '../../ports/cluster.js';
import { applyAction } from './apply/index.js';
import { AppError } from '../../errors.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  withRequestDeadline,
  type ResponseObserver,
} from './deadline.js';
import { kubeError } from './errors.js';
import { JsonPage, type KeepItem } from './json-page.js';
import { withRetry } from './retry.js';
import { clusterGate, type ClusterGate } from './rate-limit.js';

export const PAGE_SIZE = 500;
/**
 * Pods are listed in smaller pages: a Pod is about ten times a Service's bytes, and a page of 500
 * (3 MB of JSON) outlives the young generation while it is parsed and filtered, so its garbage
 * is promoted and the heap grows; a page of 100 dies young (bench/preflight).
 */
export const POD_PAGE_SIZE = 100;
const MAX_LIST_RESTARTS = 3;

/**
 * The SDK's model classes serialise to the API's JSON shape; the core only sees that shape.
 * Single reads go through them (one object, no cost to speak of); lists do not (json-page.ts).
 * managedFields are dropped on the way: no check reads them, and they are half of a Pod's bytes.
 */
function plain<T>(value: unknown): T {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => (key === 'managedFields' ? undefined : v)),
  ) as T;
}

export interface KubeClusterOptions {
  requestTimeoutMs?: number;
  /** Items per list page; 500 unless a test wants to see paging on a small cluster. */
  pageSize?: number;
  /** Every API response's verb and status (metrics). */
  onResponse?: ResponseObserver;
  /** The cluster's rate limit and counters; the process's gate for the cluster's name by default. */
  gate?: ClusterGate;
}

export class KubeCluster implements ClusterPort {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly version: VersionApi;
  private readonly custom: CustomObjectsApi;
  private readonly coordination: CoordinationV1Api;
  private readonly discovery: DiscoveryV1Api;
  private readonly timeoutMs: number;
  private readonly pageSize: number;
  private readonly onResponse: ResponseObserver | undefined;
  readonly gate: ClusterGate;

  constructor(
    readonly name: string,
    kubeConfig: KubeConfig,
    options: KubeClusterOptions = {},
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
    this.version = kubeConfig.makeApiClient(VersionApi);
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.coordination = kubeConfig.makeApiClient(CoordinationV1Api);
    this.discovery = kubeConfig.makeApiClient(DiscoveryV1Api);
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.pageSize = options.pageSize ?? PAGE_SIZE;
    this.onResponse = options.onResponse;
    this.gate = options.gate ?? clusterGate(name);
  }

  /** Per-request options: an abort signal so no call outlives its deadline. */
  private options(): ConfigurationOptions {
    return withRequestDeadline(this.timeoutMs, this.gate, this.onResponse);
  }

  private async call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await withRetry(request, { write: false, gate: this.gate });
    } catch (error) {
      throw kubeError(error, this.name, what);
    }
  }

  /**
   * Every page of a list, each parsed once as plain JSON (json-page.ts) and, with `keep`, trimmed
   * or dropped item by item as it arrives, so what a caller discards never piles up.
   */
  private async listAll<T>(
    what: string,
    fetchPage: (cont: string | undefined, options: ConfigurationOptions) => Promise<unknown>,
    onProgress?: ListProgress,
    keep?: KeepItem<T>,
  ): Promise<T[]> {
    for (let restarts = 0; ; restarts += 1) {
      const items: T[] = [];
      let cont: string | undefined;
      let pages = 0;
      try {
        do {
          const from = cont;
          const page = await withRetry(
            async () => {
              const capture = new JsonPage<T>(keep);
              await fetchPage(from, capture.options(this.options()));
              return capture.take();
            },
            { write: false, gate: this.gate },
          );
          for (const item of page.items) items.push(item);
          pages += 1;
          onProgress?.(items.length, pages);
          cont = page.metadata._continue;
        } while (cont !== undefined);
        return items;
      } catch (error) {
        const expired = (error as { code?: number }).code === 410;
        if (!expired || restarts >= MAX_LIST_RESTARTS) throw kubeError(error, this.name, what);
      }
    }
  }

  async serverVersion(): Promise<string> {
    const info = await this.call('read /version', () => this.version.getCode(this.options()));
    return info.gitVersion;
  }

  async listNodes(onProgress?: ListProgress): Promise<KubeNode[]> {
    return this.listAll<KubeNode>(
      'list nodes',
      (cont, options) => this.core.listNode(this.page(cont), options),
      onProgress,
    );
  }

  async listDaemonSets(namespace: string): Promise<KubeDaemonSet[]> {
    return this.listAll<KubeDaemonSet>(`list DaemonSets in ${namespace}`, (cont, options) =>
      this.apps.listNamespacedDaemonSet({ namespace, ...this.page(cont) }, options),
    );
  }

  /** `limit` plus `_continue` when there is one: the paging parameters every list takes. */
  private page(
    cont: string | undefined,
    limit = this.pageSize,
  ): { limit: number; _continue?: string } {
    return { limit, ...(cont === undefined ? {} : { _continue: cont }) };
  }

  async listServices(): Promise<KubeService[]> {
    return this.listAll<KubeService>('list Services', (cont, options) =>
      this.core.listServiceForAllNamespaces(this.page(cont), options),
    );
  }

  async listConfigMaps(namespace?: string): Promise<KubeConfigMap[]> {
    return namespace === undefined
      ? this.listAll<KubeConfigMap>('list ConfigMaps', (cont, options) =>
          this.core.listConfigMapForAllNamespaces(this.page(cont), options),
        )
      : this.listAll<KubeConfigMap>(`list ConfigMaps in ${namespace}`, (cont, options) =>
          this.core.listNamespacedConfigMap({ namespace, ...this.page(cont) }, options),
        );
  }

  async listPods(fieldSelector: string, keep?: KeepItem<KubePod>): Promise<KubePod[]> {
    return this.listAll<KubePod>(
      `list Pods (${fieldSelector})`,
      (cont, options) =>
        this.core.listPodForAllNamespaces(
          { fieldSelector, ...this.page(cont, Math.min(this.pageSize, POD_PAGE_SIZE)) },
          options,
        ),
      undefined,
      keep,
    );
  }

  async listPrometheusRules(): Promise<PrometheusRule[] | undefined> {
    try {
      return await this.listAll<PrometheusRule>('list PrometheusRules', (cont, options) =>
        this.custom.listClusterCustomObject(
          {
            group: 'monitoring.coreos.com',
            version: 'v1',
            plural: 'prometheusrules',
            ...this.page(cont),
          },
          options,
        ),
      );
    } catch (error) {
      // A CRD that is not installed answers 404 on its list: that means "no rules", not an error.
      if (error instanceof AppError && error.code === 'K8S_NOT_FOUND') return undefined;
      throw error;
    }
  }

  /** Reads one object; undefined when the API answers 404. */
  private async read<T>(what: string, request: () => Promise<unknown>): Promise<T | undefined> {
    try {
      return plain<T>(await withRetry(request, { write: false, gate: this.gate }));
    } catch (error) {
      if ((error as { code?: number }).code === 404) return undefined;
      throw kubeError(error, this.name, what);
    }
  }

  getConfigMap(namespace: string, name: string): Promise<KubeConfigMap | undefined> {
    return this.read(`read ConfigMap ${namespace}/${name}`, () =>
      this.core.readNamespacedConfigMap({ namespace, name }, this.options()),
    );
  }

  getDaemonSet(namespace: string, name: string): Promise<KubeDaemonSet | undefined> {
    return this.read(`read DaemonSet ${namespace}/${name}`, () =>
      this.apps.readNamespacedDaemonSet({ namespace, name }, this.options()),
    );
  }

  getNode(name: string): Promise<KubeNode | undefined> {
    return this.read(`read node ${name}`, () => this.core.readNode({ name }, this.options()));
  }

  getLease(namespace: string, name: string): Promise<KubeLease | undefined> {
    return this.read(`read Lease ${namespace}/${name}`, () =>
      this.coordination.readNamespacedLease({ namespace, name }, this.options()),
    );
  }

  async listEndpointSlices(): Promise<KubeEndpointSlice[]> {
    return this.listAll<KubeEndpointSlice>('list EndpointSlices', (cont, options) =>
      this.discovery.listEndpointSliceForAllNamespaces(this.page(cont), options),
    );
  }

  listPodsOnNode(node: string): Promise<KubePod[]> {
    return this.listPods(`spec.nodeName=${node}`);
  }

  async podLog(
    namespace: string,
    pod: string,
    container: string,
    tailLines: number,
  ): Promise<string> {
    return this.call(`read the log of ${namespace}/${pod}`, () =>
      this.core.readNamespacedPodLog(
        { namespace, name: pod, container, tailLines },
        this.options(),
      ),
    );
  }

  apply(action: ClusterAction, options: ApplyOptions = {}): Promise<ApplyResult> {
    return applyAction(
      {
        cluster: this.name,
        core: this.core,
        apps: this.apps,
        coordination: this.coordination,
        options: () => this.options(),
        gate: this.gate,
        dryRun: options.dryRun === true,
      },
      action,
    );
  }
}

/**
 * The fleet probe in action: one DaemonSet for many nodes (probe-daemonset.ts), its pods started
 * by the DaemonSet controller at once, waited for with a deadline by polling the DaemonSet's
 * status (one GET a poll, whatever the fleet's size) and listing its pods (paged) only when
 * enough are ready; deleted when the run ends, also when it fails or is aborted mid-start.
 * A fleet that cannot start (RBAC without the DaemonSet rule, every name taken) falls back to
 * one probe pod per node, which is slower, never wrong.
 */
import type {
  AppsV1Api,
  ConfigurationOptions,
  CoreV1Api,
  V1DaemonSet,
  V1Pod,
} from '@kubernetes/client-node';
import type { ClusterAction } from '../../core/actions.js';
import { PROBE_DAEMONSET_NAMES } from '../../core/permissions.js';
import { asAppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { ApplyResult } from '../../ports/cluster.js';
import { isStaleProbeDaemonSet, PROBE_RUN_LABEL, runLabelValue } from './probe-daemonset.js';
import { withRetry } from './retry.js';

export interface ProbeFleetOptions {
  cluster: string;
  namespace: string;
  image: string;
  runId: string;
  logger: Logger;
  core: CoreV1Api;
  apps: AppsV1Api;
  /** Per-request options: a deadline and the cluster's rate limit (the probe shell's gate). */
  request(): ConfigurationOptions;
  apply(action: ClusterAction): Promise<ApplyResult>;
  startTimeoutMs: number;
  pollMs: number;
  /** Wall-clock now, for the age of a DaemonSet another run left (its creationTimestamp). */
  now(): number;
}

/** Where a node's commands run: its fleet pod, nothing (it did not start), or a pod of its own. */
export type FleetPod = { pod: string } | { missing: string } | { fallback: true };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function running(pod: V1Pod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    pod.metadata?.deletionTimestamp === undefined &&
    (pod.status.containerStatuses ?? []).every((c) => c.state?.running !== undefined)
  );
}

export class ProbeFleet {
  private readonly wanted: ReadonlySet<string>;
  private readonly ready: Promise<Map<string, string> | undefined>;
  private name: string | undefined;
  private aborted = false;
  private waitedMs = 0;

  constructor(
    private readonly options: ProbeFleetOptions,
    nodes: readonly string[],
    allNodes: boolean,
  ) {
    this.wanted = new Set(nodes);
    this.ready = this.launch(allNodes ? null : [...nodes].sort()).catch((error: unknown) => {
      options.logger.warn(
        { err: error, cluster: options.cluster },
        'fleet probe DaemonSet did not start: probing node by node',
      );
      return undefined;
    });
  }

  covers(node: string): boolean {
    return this.wanted.has(node);
  }

  async podOn(node: string): Promise<FleetPod> {
    const pods = await this.ready;
    if (pods === undefined) return { fallback: true };
    const pod = pods.get(node);
    return pod === undefined
      ? {
          missing: `the fleet probe DaemonSet ${this.options.namespace}/${this.name ?? '?'} had no running pod on the node after ${Math.round(this.waitedMs / 1000)} s`,
        }
      : { pod };
  }

  private async launch(nodes: string[] | null): Promise<Map<string, string> | undefined> {
    const { namespace, image, runId } = this.options;
    for (const name of PROBE_DAEMONSET_NAMES) {
      if (this.aborted) return undefined;
      if (!(await this.claim(name, nodes))) continue;
      this.name = name;
      // Closed while the create was in flight: close() saw no name yet, so delete it here.
      if (this.aborted) {
        await this.remove();
        return undefined;
      }
      return this.waitForPods(name);
    }
    throw new Error(
      `every probe DaemonSet name in ${namespace} is taken (${PROBE_DAEMONSET_NAMES.join(', ')}) for ${image}, run ${runId}`,
    );
  }

  /** Creates the DaemonSet under `name`; false when another live run holds the name. */
  private async claim(name: string, nodes: string[] | null): Promise<boolean> {
    const { namespace, image, runId } = this.options;
    const create = (): Promise<ApplyResult> =>
      this.options.apply({
        kind: 'create-probe-daemonset',
        ref: { namespace, name },
        image,
        runId,
        nodes,
      });
    try {
      await create();
      return true;
    } catch (error) {
      if (asAppError(error).code !== 'K8S_CONFLICT') throw error;
    }
    const live = await this.read(name);
    if (
      live === undefined ||
      !isStaleProbeDaemonSet(live.metadata ?? {}, runId, this.options.now())
    )
      return false;
    // A crashed run's DaemonSet: remove it and take its name.
    this.options.logger.info({ daemonSet: name }, 'removing a stale probe DaemonSet');
    await this.options.apply({ kind: 'delete-probe-daemonset', ref: { namespace, name }, runId });
    await create();
    return true;
  }

  private async read(name: string): Promise<V1DaemonSet | undefined> {
    return withRetry(
      () =>
        this.options.apps.readNamespacedDaemonSet(
          { namespace: this.options.namespace, name },
          this.options.request(),
        ),
      { write: false },
    ).catch((error: unknown) => {
      if ((error as { code?: number }).code === 404) return undefined;
      throw error;
    });
  }

  private async waitForPods(name: string): Promise<Map<string, string>> {
    const started = Date.now();
    const deadline = started + this.options.startTimeoutMs;
    let listedAt = -1;
    let pods = new Map<string, string>();
    for (;;) {
      if (this.aborted) return pods;
      const ds = await this.read(name);
      const ready = ds?.status?.numberReady ?? 0;
      const late = Date.now() > deadline;
      // List (paged) only when the ready count says it could be complete, or time is up.
      if ((ready >= this.wanted.size && ready !== listedAt) || late) {
        listedAt = ready;
        pods = await this.listPods(name);
        const covered = [...this.wanted].every((node) => pods.has(node));
        if (covered || late) {
          this.waitedMs = Date.now() - started;
          return pods;
        }
      }
      await sleep(this.options.pollMs);
    }
  }

  private async listPods(name: string): Promise<Map<string, string>> {
    const selector = `${PROBE_RUN_LABEL}=${runLabelValue(this.options.runId)},proxy-migrate.io/probe-set=${name}`;
    const pods = new Map<string, string>();
    let token: string | undefined;
    do {
      const page = await withRetry(
        () =>
          this.options.core.listNamespacedPod(
            {
              namespace: this.options.namespace,
              labelSelector: selector,
              limit: 500,
              ...(token === undefined ? {} : { _continue: token }),
            },
            this.options.request(),
          ),
        { write: false },
      );
      // Keep only node → name: the pod objects themselves are dropped page by page.
      for (const pod of page.items) {
        const node = pod.spec?.nodeName;
        if (node !== undefined && running(pod) && this.wanted.has(node))
          pods.set(node, pod.metadata?.name ?? '');
      }
      token = page.metadata?._continue || undefined;
    } while (token !== undefined);
    return pods;
  }

  private async remove(): Promise<void> {
    const name = this.name;
    if (name === undefined) return;
    this.name = undefined;
    await this.options.apply({
      kind: 'delete-probe-daemonset',
      ref: { namespace: this.options.namespace, name },
      runId: this.options.runId,
    });
  }

  /** Deletes the DaemonSet (its pods go with it), also while it is still starting. */
  async close(): Promise<void> {
    this.aborted = true;
    await this.ready;
    const name = this.name;
    await this.remove().catch((error: unknown) =>
      this.options.logger.warn(
        { err: error, daemonSet: name },
        'could not delete the fleet probe DaemonSet',
      ),
    );
  }
}

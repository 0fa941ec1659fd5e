/**
 * NodeShell over probe pods: one pod per node, created on first use, waited for with a deadline,
 * exec'd into over client-node's WebSocket exec (status frame → exit code), deleted on close.
 */
import { Writable } from 'node:stream';
import {
  AppsV1Api,
  CoreV1Api,
  Exec,
  type ConfigurationOptions,
  type KubeConfig,
  type V1Status,
} from '@kubernetes/client-node';
import { AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { CommandResult, NodeShell, RunOptions } from '../../ports/node-shell.js';
import { withDeadline } from '../../core/deadline.js';
import {
  DEFAULT_REQUEST_TIMEOUT_MS as REQUEST_TIMEOUT_MS,
  withRequestDeadline,
} from './deadline.js';
import { kubeError } from './errors.js';
import type { ClusterAction } from '../../core/actions.js';
import type { ApplyResult } from '../../ports/cluster.js';
import {
  PROBE_CONTAINER,
  PROBE_LABEL,
  PROBE_LIFETIME_SECONDS,
  PROBE_RUN_LABEL,
  probePodName,
} from './probe-pod.js';
import { EXEC_RETRY, upgradeRefused, withRetry } from './retry.js';
import { clusterGate, type ClusterGate } from './rate-limit.js';
import { ProbeFleet } from './probe-fleet.js';

/** Below this many nodes a pre-flight starts one probe pod per node; from it, one DaemonSet. */
export const FLEET_MIN_NODES = 20;

export interface ProbeShellOptions {
  cluster: string;
  namespace: string;
  image: string;
  runId: string;
  logger: Logger;
  /** How long a probe pod may take to start (image pull included). */
  startTimeoutMs?: number;
  pollMs?: number;
  /** Fewest nodes probed together that start a DaemonSet instead of one pod each. */
  fleetMinNodes?: number;
  /** Wall-clock now (epoch ms), against which leftover probe objects' ages are judged. */
  now?: () => number;
  /** The cluster's one write path: probe pods are created and deleted as ClusterActions. */
  apply(action: ClusterAction): Promise<ApplyResult>;
  /** The cluster's rate limit, shared with its other clients; the process's gate by default. */
  gate?: ClusterGate;
}

class Collector extends Writable {
  private chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    callback();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Reads the exit code from the exec status frame (Success, or NonZeroExitCode with ExitCode). */
export function exitCodeOf(status: V1Status): number | undefined {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  return cause?.message === undefined ? undefined : Number(cause.message);
}

export class ProbePodShell implements NodeShell {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly exec: Exec;
  private fleet: ProbeFleet | undefined;
  private readonly pods = new Map<string, Promise<string>>();
  /** Every pod this shell created, started or not, so close() removes them all. */
  private readonly created = new Map<string, string>();
  /** Pods replaced per node: a probe pod that ended is replaced once per command. */
  private readonly generations = new Map<string, number>();
  private closed = false;
  private collecting: Promise<void> | undefined;
  private readonly gate: ClusterGate;

  constructor(
    kubeConfig: KubeConfig,
    private readonly options: ProbeShellOptions,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
    this.exec = new Exec(kubeConfig);
    this.gate = options.gate ?? clusterGate(options.cluster);
  }

  private failed(node: string, message: string, remedy: string, cause?: unknown): AppError {
    return new AppError(
      'NODE_PROBE_FAILED',
      `Cluster ${this.options.cluster}, node ${node}: ${message}`,
      {
        remedy,
        retryable: true,
        cause,
        details: { cluster: this.options.cluster, node },
      },
    );
  }

  private async startPod(node: string): Promise<string> {
    // A fleet that fell back after close() must not leave a pod nobody deletes.
    if (this.closed) throw this.failed(node, 'the probe shell is closed.', 'Start a new run.');
    const { namespace, image, runId } = this.options;
    const name = probePodName(runId, node, this.generations.get(node) ?? 0);
    this.created.set(name, node);
    await this.options.apply({
      kind: 'create-probe-pod',
      ref: { namespace, name },
      node,
      image,
      runId,
    });
    const deadline = Date.now() + (this.options.startTimeoutMs ?? 60_000);
    for (;;) {
      const pod = await withRetry(
        () => this.core.readNamespacedPod({ namespace, name }, this.request()),
        { write: false, gate: this.gate },
      ).catch((error: unknown) => {
        throw kubeError(error, this.options.cluster, `read probe pod ${name}`);
      });
      const phase = pod.status?.phase;
      const waiting = pod.status?.containerStatuses?.[0]?.state?.waiting;
      if (phase === 'Running') return name;
      if (
        phase === 'Failed' ||
        phase === 'Succeeded' ||
        waiting?.reason === 'ErrImagePull' ||
        waiting?.reason === 'ImagePullBackOff'
      ) {
        throw this.failed(
          node,
          `probe pod ${name} did not start (${waiting?.reason ?? phase ?? 'unknown'}${waiting?.message === undefined ? '' : `: ${waiting.message}`}).`,
          `Check that the probe image ${image} can be pulled on the node (clusters file: probe.image).`,
        );
      }
      if (Date.now() > deadline) {
        throw new AppError(
          'NODE_PROBE_TIMEOUT',
          `Cluster ${this.options.cluster}, node ${node}: probe pod ${name} is still ${phase ?? 'Pending'}.`,
          {
            remedy:
              'Check the node is Ready and can pull the probe image; the pod is removed when the run ends.',
            retryable: true,
            details: { cluster: this.options.cluster, node, pod: name },
          },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 500));
    }
  }

  /**
   * Removes probe pods that earlier runs left behind (a crashed bot, a killed terminal): any
   * that finished or are older than their lifetime. Best effort, once per shell.
   */
  private collectStale(): Promise<void> {
    this.collecting ??= (async () => {
      const { namespace } = this.options;
      const list = await this.core.listNamespacedPod(
        { namespace, labelSelector: `${PROBE_LABEL}=true` },
        this.request(),
      );
      const cutoff = Date.now() - PROBE_LIFETIME_SECONDS * 1000;
      const stale = list.items.filter((pod) => {
        const created = pod.metadata?.creationTimestamp?.getTime() ?? Date.now();
        const done = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
        // A fleet probe's pods are its DaemonSet's to remove (probe-fleet.ts), not ours.
        const owned = (pod.metadata?.ownerReferences ?? []).length > 0;
        return (
          !owned &&
          pod.metadata?.annotations?.['proxy-migrate.io/run'] !== this.options.runId &&
          (done || created < cutoff)
        );
      });
      await Promise.all(
        stale.map((pod) =>
          this.options.apply({
            kind: 'delete-probe-pod',
            ref: { namespace, name: pod.metadata?.name ?? '' },
            node: pod.spec?.nodeName ?? '',
          }),
        ),
      );
      if (stale.length > 0)
        this.options.logger.info({ count: stale.length }, 'removed stale probe pods');
    })().catch((error: unknown) =>
      this.options.logger.warn({ err: error }, 'could not collect stale probe pods'),
    );
    return this.collecting;
  }

  private podFor(node: string): Promise<string> {
    if (this.closed)
      return Promise.reject(this.failed(node, 'the probe shell is closed.', 'Start a new run.'));
    let pod = this.pods.get(node);
    if (pod === undefined) {
      const fleet = this.fleet;
      pod =
        fleet?.covers(node) === true
          ? fleet.podOn(node).then((where) => {
              if ('pod' in where) return where.pod;
              if ('missing' in where)
                throw this.failed(
                  node,
                  `${where.missing}.`,
                  `Check the node is Ready and can pull the probe image ${this.options.image}.`,
                );
              return this.collectStale().then(() => this.startPod(node));
            })
          : this.collectStale().then(() => this.startPod(node));
      this.pods.set(node, pod);
    }
    return pod;
  }

  /**
   * Many nodes about to be probed: one DaemonSet starts all their probe pods at once (from
   * FLEET_MIN_NODES nodes; fewer get a pod each). `allNodes`: they are every node, so the
   * DaemonSet needs no node list.
   */
  prepare(nodes: readonly string[], options: { allNodes?: boolean } = {}): void {
    if (this.closed || this.fleet !== undefined) return;
    if (nodes.length < (this.options.fleetMinNodes ?? FLEET_MIN_NODES)) return;
    this.fleet = new ProbeFleet(
      {
        ...this.options,
        core: this.core,
        apps: this.apps,
        request: () => this.request(),
        startTimeoutMs: this.options.startTimeoutMs ?? 60_000,
        pollMs: this.options.pollMs ?? 1_000,
        now: this.options.now ?? Date.now,
      },
      nodes,
      options.allNodes === true,
    );
  }

  warm(node: string): void {
    // A failure here shows again (and is reported) when a command runs on the node.
    this.podFor(node).catch(() => undefined);
  }

  async run(node: string, argv: readonly string[], options: RunOptions): Promise<CommandResult> {
    try {
      return await this.runIn(node, await this.podFor(node), argv, options);
    } catch (error) {
      // A probe pod lives PROBE_LIFETIME_SECONDS, and a long run (one that waited for an
      // approval) can outlive it: a pod whose container is gone is replaced, once.
      if (!(error instanceof AppError) || error.code !== 'NODE_PROBE_FAILED') throw error;
      // A fleet pod is its DaemonSet's: the controller replaces it, not this shell.
      if (this.fleet?.covers(node) === true) throw error;
      const stale = await this.podFor(node).catch(() => undefined);
      if (stale !== undefined && !(await this.ended(stale))) throw error;
      this.pods.delete(node);
      this.generations.set(node, (this.generations.get(node) ?? 0) + 1);
      if (stale !== undefined)
        await this.options.apply({
          kind: 'delete-probe-pod',
          ref: { namespace: this.options.namespace, name: stale },
          node,
        });
      return this.runIn(node, await this.podFor(node), argv, options);
    }
  }

  /** Whether a probe pod has ended (or is gone), so commands can no longer run in it. */
  private async ended(name: string): Promise<boolean> {
    try {
      const pod = await this.core.readNamespacedPod(
        { namespace: this.options.namespace, name },
        this.request(),
      );
      const phase = pod.status?.phase;
      return (
        phase === 'Failed' || phase === 'Succeeded' || pod.metadata?.deletionTimestamp !== undefined
      );
    } catch (error) {
      return (error as { code?: number }).code === 404;
    }
  }

  private async runIn(
    node: string,
    pod: string,
    argv: readonly string[],
    options: RunOptions,
  ): Promise<CommandResult> {
    const stdout = new Collector();
    const stderr = new Collector();
    let status: V1Status | undefined;
    // A refused upgrade (429, 5xx) ran nothing: connect again, as kubectl would be retried.
    const connecting = withRetry(
      async () => {
        // An exec waits for the cluster's exec rate limit (its own bucket: token-bucket.ts).
        await this.gate.takeExec();
        return this.exec.exec(
          this.options.namespace,
          pod,
          PROBE_CONTAINER,
          [...argv],
          stdout,
          stderr,
          null,
          false,
          (s) => {
            status = s;
          },
        );
      },
      { write: true, classify: upgradeRefused, policy: EXEC_RETRY, gate: this.gate },
    ).catch((error: unknown) => {
      throw this.failed(
        node,
        `cannot exec into probe pod ${pod}.`,
        'Check that the bot may create pods/exec in the probe namespace.',
        error,
      );
    });
    const socket = await withDeadline(connecting, REQUEST_TIMEOUT_MS, () =>
      this.failed(
        node,
        `exec into probe pod ${pod} did not connect in time.`,
        'Check the API server and the node’s kubelet are reachable.',
      ),
    );
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    });
    const outcome = await Promise.race([closed, timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      socket.terminate();
      throw new AppError(
        'NODE_PROBE_TIMEOUT',
        `Cluster ${this.options.cluster}, node ${node}: \`${argv.join(' ')}\` did not finish within ${options.timeoutMs} ms.`,
        {
          remedy: 'Check the node’s load; the probe is retried on the next run.',
          retryable: true,
          details: { cluster: this.options.cluster, node },
        },
      );
    }
    const exitCode = status === undefined ? undefined : exitCodeOf(status);
    if (exitCode === undefined) {
      throw this.failed(
        node,
        `\`${argv.join(' ')}\` ended without an exit status${status?.message === undefined ? '' : `: ${status.message}`}.`,
        'Check the probe image contains the tool (nft, ipvsadm, conntrack, iproute2, curl).',
      );
    }
    return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
  }

  /** Options for every API call: a deadline, so a hung API server cannot hang the run. */
  private request(): ConfigurationOptions {
    return withRequestDeadline(REQUEST_TIMEOUT_MS, this.gate);
  }

  /** The run's pods an earlier process made (killed before it could delete them), by label. */
  private async earlier(): Promise<[string, string][]> {
    const { namespace, runId } = this.options;
    try {
      const list = await withRetry(
        () =>
          this.core.listNamespacedPod(
            { namespace, labelSelector: `${PROBE_LABEL}=true,${PROBE_RUN_LABEL}=${runId}` },
            this.request(),
          ),
        { write: false },
      );
      return list.items
        .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
        .map((pod) => [pod.metadata?.name ?? '', pod.spec?.nodeName ?? '']);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not list the run’s probe pods');
      return [];
    }
  }

  /** Closes the shell: every probe pod of the run goes, this process's and any earlier one's. */
  async close(): Promise<void> {
    this.closed = true;
    const fleet = this.fleet;
    this.fleet = undefined;
    await Promise.all([
      fleet?.close(),
      ...[...this.pods.values()].map((pending) => pending.catch(() => undefined)),
    ]);
    this.pods.clear();
    const names = new Map([...this.created, ...(await this.earlier())]);
    this.created.clear();
    await Promise.all(
      [...names].map(([name, node]) =>
        this.options
          .apply({
            kind: 'delete-probe-pod',
            ref: { namespace: this.options.namespace, name },
            node,
          })
          .catch((error: unknown) =>
            this.options.logger.warn({ err: error, pod: name }, 'could not delete probe pod'),
          ),
      ),
    );
  }
}

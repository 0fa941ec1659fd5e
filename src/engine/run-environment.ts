/**
 * What a run needs from the world, built once per run in this process: its cluster's client and
 * configuration, one probe shell (one probe pod per node, reused by every step), the Slack
 * channel it talks in, and the cluster lock. `release` gives it all back when the run ends.
 */
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { LOCK_LEASE_NAME } from '../core/permissions.js';
import type { RunState } from '../core/run-state.js';
import type { Step } from '../core/runbook.js';
import type { ClusterConfig } from '../config.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { ChatPort } from '../ports/chat.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterDirectory, ClusterPort } from '../ports/cluster.js';
import type { NodeShell } from '../ports/node-shell.js';
import { ClusterLock } from './lock.js';

export interface RunResources {
  cluster: ClusterPort;
  clusterConfig: ClusterConfig;
  shell(): NodeShell;
  chat: { port: ChatPort; channel: string } | undefined;
  lock: ClusterLock;
  /** Throws LOCK_LOST when a mutating run no longer holds the cluster lock. */
  assertLockHeld(): Promise<void>;
  /** Before each step: a run that took the lock (in any process) takes it up again here. */
  beforeStep(state: RunState, step: Step): Promise<void>;
}

export interface RunEnvironment {
  forRun(state: RunState): Promise<RunResources>;
  /** The run ended: close its probe shell (deleting the pods), release the lock. */
  release(state: RunState): Promise<void>;
  /** The run waits for a person: its probe pods go (a new step makes new ones). */
  pause(state: RunState): Promise<void>;
  /** Process shutdown: close every shell; locks are left to expire so a resumer can renew them. */
  close(): Promise<void>;
  /** On start: deletes probe pods, on every cluster, of runs `keep` does not keep. */
  collect(keep: (runId: string) => Promise<boolean>): Promise<void>;
}

interface Held {
  resources: RunResources;
  shell: NodeShell | undefined;
}

export class DefaultRunEnvironment implements RunEnvironment {
  private readonly runs = new Map<string, Held>();

  constructor(
    private readonly clusters: readonly ClusterConfig[],
    private readonly directory: ClusterDirectory,
    private readonly chat: ChatPort | undefined,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private config(name: string): ClusterConfig {
    const config = this.clusters.find((c) => c.name === name);
    if (config === undefined) {
      throw new AppError('UNKNOWN_CLUSTER', `Cluster ${name} is no longer configured.`, {
        remedy: 'Check the clusters file the worker runs with; it may differ from the bot’s.',
      });
    }
    return config;
  }

  forRun(state: RunState): Promise<RunResources> {
    const existing = this.runs.get(state.id);
    if (existing !== undefined) return Promise.resolve(existing.resources);
    const clusterConfig = this.config(state.cluster);
    const cluster = this.directory.get(state.cluster);
    const lock = new ClusterLock(
      cluster,
      { namespace: KUBE_SYSTEM, name: LOCK_LEASE_NAME },
      `proxy-migrate/${state.id}`,
      this.clock,
      this.logger.child({ runId: state.id, cluster: state.cluster }),
    );
    const held: Held = { shell: undefined, resources: undefined as unknown as RunResources };
    const channel = state.options.channel;
    held.resources = {
      cluster,
      clusterConfig,
      lock,
      chat:
        this.chat === undefined || channel === undefined ? undefined : { port: this.chat, channel },
      shell: () => (held.shell ??= this.directory.nodeShell(state.cluster, state.id)),
      assertLockHeld: () => Promise.resolve(lock.assertHeld()),
      beforeStep: async (current) => {
        if (current.facts['lockTaken'] !== true || lock.held) return;
        const taken = await lock.acquire();
        if (!taken.ok) {
          throw new AppError(
            'LOCK_LOST',
            `Cluster ${state.cluster}: the cluster lock is held by ${taken.holder}, not by this run.`,
            {
              remedy: 'Nothing more was written. Check `proxy-migrate status` for the lock holder.',
            },
          );
        }
      },
    };
    this.runs.set(state.id, held);
    return Promise.resolve(held.resources);
  }

  async release(state: RunState): Promise<void> {
    const held = this.runs.get(state.id);
    // A run taken up by this process only to end it still releases the lock it took elsewhere.
    const lock =
      held?.resources.lock ??
      (state.facts['lockTaken'] === true ? (await this.forRun(state)).lock : undefined);
    this.runs.delete(state.id);
    await Promise.all([
      this.shellToClose(state, held)
        ?.close()
        .catch((error: unknown) =>
          this.logger.warn({ err: error, runId: state.id }, 'could not close the probe shell'),
        ),
      (async () => {
        if (lock === undefined || state.facts['lockTaken'] !== true) return;
        // A lock taken in another process is released by whoever ends the run.
        if (!lock.held) await lock.acquire().catch(() => undefined);
        await lock.release();
      })().catch((error: unknown) =>
        this.logger.warn({ err: error, runId: state.id }, 'could not release the cluster lock'),
      ),
    ]);
  }

  /**
   * The run's shell, or a fresh one when this process never made one: closing it deletes every
   * probe pod of the run, also those an earlier process (killed) made.
   */
  private shellToClose(state: RunState, held: Held | undefined): NodeShell | undefined {
    if (held?.shell !== undefined) return held.shell;
    try {
      return this.directory.nodeShell(state.cluster, state.id);
    } catch (error) {
      this.logger.warn({ err: error, runId: state.id }, 'no probe shell to clean up with');
      return undefined;
    }
  }

  async pause(state: RunState): Promise<void> {
    const held = this.runs.get(state.id);
    const shell = this.shellToClose(state, held);
    if (held !== undefined) held.shell = undefined;
    await shell
      ?.close()
      .catch((error: unknown) =>
        this.logger.warn({ err: error, runId: state.id }, 'could not close the probe shell'),
      );
  }

  async collect(keep: (runId: string) => Promise<boolean>): Promise<void> {
    await Promise.all(
      this.clusters.map(async (c) => {
        try {
          const deleted = await this.directory.collectProbePods(c.name, keep);
          if (deleted > 0)
            this.logger.info({ cluster: c.name, deleted }, 'deleted probe pods of ended runs');
        } catch (error) {
          this.logger.warn({ err: error, cluster: c.name }, 'could not collect probe pods');
        }
      }),
    );
  }

  async close(): Promise<void> {
    const shells = [...this.runs.values()].flatMap((h) => (h.shell === undefined ? [] : [h.shell]));
    this.runs.clear();
    await Promise.all(shells.map((shell) => shell.close().catch(() => undefined)));
  }
}

/**
 * The cluster lock: a coordination.k8s.io/v1 Lease in kube-proxy's namespace, held by one run
 * (the holder is the run id, so the run resumed in another process is still the holder). It is
 * renewed while the run works; a run that finds another holder stops before its next write.
 * Reads and other clusters are never blocked.
 */
import type { ObjectRef } from '../core/actions.js';
import { decideLease } from '../core/lease.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterPort } from '../ports/cluster.js';

export const LEASE_DURATION_SECONDS = 30;

export type AcquireResult = { ok: true; tookOverFrom?: string } | { ok: false; holder: string };

export class ClusterLock {
  private heldUntil = 0;
  private lostTo: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private resourceVersion = '';

  constructor(
    private readonly cluster: ClusterPort,
    readonly ref: ObjectRef,
    readonly holder: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly durationSeconds = LEASE_DURATION_SECONDS,
  ) {}

  private nowMs(): number {
    return this.clock.now().getTime();
  }

  /** Takes or renews the Lease; someone else's live Lease is a refusal, not an error. */
  async acquire(): Promise<AcquireResult> {
    const lease = await this.cluster.getLease(this.ref.namespace, this.ref.name);
    const decision = decideLease(lease, this.holder, this.nowMs());
    if (decision.kind === 'held') return { ok: false, holder: decision.holder };
    try {
      const result =
        decision.kind === 'renew'
          ? await this.cluster.apply({
              kind: 'renew-lease',
              ref: this.ref,
              holder: this.holder,
              resourceVersion: decision.resourceVersion,
            })
          : await this.cluster.apply({
              kind: 'acquire-lease',
              ref: this.ref,
              holder: this.holder,
              durationSeconds: this.durationSeconds,
              previous:
                decision.kind === 'create'
                  ? null
                  : {
                      holder: decision.previousHolder,
                      resourceVersion: decision.resourceVersion,
                      transitions: decision.transitions,
                    },
            });
      this.resourceVersion = result.resourceVersion ?? '';
    } catch (error) {
      // Another process won the race for the same Lease: read who.
      if (error instanceof AppError && error.code === 'K8S_CONFLICT') {
        const now = await this.cluster.getLease(this.ref.namespace, this.ref.name);
        const holder = now?.spec?.holderIdentity ?? 'someone else';
        if (holder !== this.holder) return { ok: false, holder };
      } else {
        throw error;
      }
    }
    this.heldUntil = this.nowMs() + this.durationSeconds * 1000;
    this.lostTo = undefined;
    this.keepRenewing();
    return decision.kind === 'take-over' && decision.previousHolder !== ''
      ? { ok: true, tookOverFrom: decision.previousHolder }
      : { ok: true };
  }

  private keepRenewing(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(
      () => {
        this.renew().catch((error: unknown) =>
          this.logger.warn({ err: error, lease: this.ref.name }, 'lease renewal failed'),
        );
      },
      (this.durationSeconds * 1000) / 3,
    );
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    const lease = await this.cluster.getLease(this.ref.namespace, this.ref.name);
    const holder = lease?.spec?.holderIdentity;
    if (holder !== this.holder) {
      this.lostTo = holder ?? 'nobody (the Lease is gone)';
      this.stopRenewing();
      return;
    }
    const result = await this.cluster.apply({
      kind: 'renew-lease',
      ref: this.ref,
      holder: this.holder,
      resourceVersion: lease?.metadata.resourceVersion ?? '',
    });
    this.resourceVersion = result.resourceVersion ?? this.resourceVersion;
    this.heldUntil = this.nowMs() + this.durationSeconds * 1000;
  }

  /** Throws LOCK_LOST unless the Lease is ours and unexpired: checked before every write. */
  assertHeld(): void {
    if (this.lostTo === undefined && this.nowMs() < this.heldUntil) return;
    throw new AppError(
      'LOCK_LOST',
      `Cluster ${this.cluster.name}: the cluster lock ${this.ref.namespace}/${this.ref.name} is no longer held by this run${this.lostTo === undefined ? ' (it could not be renewed in time)' : ` (now: ${this.lostTo})`}.`,
      {
        remedy:
          'Nothing more was written. Check `proxy-migrate status` for who holds the lock and the node’s state.',
        details: { cluster: this.cluster.name, holder: this.holder, lostTo: this.lostTo },
      },
    );
  }

  get held(): boolean {
    return this.heldUntil > 0 && this.lostTo === undefined;
  }

  private stopRenewing(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Gives the Lease up (deletes it) if it is still ours. Best effort: it expires anyway. */
  async release(): Promise<void> {
    this.stopRenewing();
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    const lease = await this.cluster.getLease(this.ref.namespace, this.ref.name);
    if (lease?.spec?.holderIdentity !== this.holder) return;
    await this.cluster.apply({
      kind: 'release-lease',
      ref: this.ref,
      holder: this.holder,
      resourceVersion: lease.metadata.resourceVersion ?? '',
    });
  }
}

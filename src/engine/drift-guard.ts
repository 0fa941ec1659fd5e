/**
 * The drift check of one cluster, as the scheduled `drift-check` job (or the in-process timer)
 * runs it: read the same invariants `proxy-migrate status` prints, decide with core/drift.ts,
 * post the alert or "resolved" in the cluster's channel (the first of `channels`), and keep the
 * record so the same drift is posted once. Reads only; a repair goes through the approval path
 * when someone presses the alert's button.
 */
import type { Metrics } from '../adapters/metrics.js';
import type { ClusterConfig } from '../config.js';
import { decideDrift, type DriftDecision, type RecordedDrift } from '../core/drift.js';
import type { Logger } from '../log.js';
import type { ChatPort } from '../ports/chat.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import type { DriftStore, StoredDrift } from '../ports/drift-store.js';
import type { RunStore } from '../ports/run-store.js';
import { driftAlertMessage, driftResolvedMessage } from '../views/drift-alert.js';
import { readStatus } from './read-status.js';

/** A drift id (what a repair button names) lives this long after the drift was last seen. */
export const DRIFT_ID_TTL_MS = 24 * 60 * 60_000;
/** The per-cluster record outlives a stopped guard by at most this long. */
export const DRIFT_RECORD_TTL_MS = 7 * 24 * 60 * 60_000;
/** A check that dies holding the per-cluster lock frees it after this long. */
const CHECK_LOCK_MS = 5 * 60_000;

export interface DriftGuardOptions {
  clusters: readonly ClusterConfig[];
  directory: ClusterDirectory;
  chat: ChatPort;
  runs: RunStore;
  state: DriftStore;
  clock: Clock;
  logger: Logger;
  metrics?: Pick<Metrics, 'driftDetected'>;
}

export type DriftCheckResult =
  | { outcome: 'off'; reason: string }
  /** Another check of this cluster is running. */
  | { outcome: 'busy' }
  | { outcome: DriftDecision['kind']; decision: DriftDecision; channel: string; ts?: string };

/** Whether the guard runs for a cluster, and why not. */
export function driftGuardSetting(
  config: ClusterConfig,
): { on: true; channel: string; everyMinutes: number } | { on: false; reason: string } {
  if (config.driftCheckMinutes === 0) return { on: false, reason: 'driftCheckMinutes is 0' };
  const channel = config.channels[0];
  if (channel === undefined)
    return { on: false, reason: 'the cluster lists no channel to post in' };
  return { on: true, channel, everyMinutes: config.driftCheckMinutes };
}

export class DriftGuard {
  constructor(private readonly options: DriftGuardOptions) {}

  get clusters(): readonly ClusterConfig[] {
    return this.options.clusters;
  }

  async check(clusterName: string): Promise<DriftCheckResult> {
    const { state, logger: base } = this.options;
    const config = this.options.clusters.find((c) => c.name === clusterName);
    if (config === undefined) return { outcome: 'off', reason: 'the cluster is not configured' };
    const setting = driftGuardSetting(config);
    if (!setting.on) return { outcome: 'off', reason: setting.reason };
    if (!(await state.tryLock(clusterName, CHECK_LOCK_MS))) return { outcome: 'busy' };
    const logger = base.child({ cluster: clusterName, job: 'drift-check' });
    try {
      const now = this.options.clock.now();
      const status = await readStatus({
        cluster: this.options.directory.get(clusterName),
        config,
        store: this.options.runs,
        now,
      });
      const previous = await state.record(clusterName);
      const at = now.toISOString();
      const decision = decideDrift(previous, {
        cluster: clusterName,
        inProgress: status.inProgress,
        lockHeld: status.lock !== undefined,
        violations: status.violations,
        at,
      });
      const result = await this.act(clusterName, setting, decision, at);
      logger.info(
        {
          outcome: decision.kind,
          ...(decision.kind === 'nothing' ? { reason: decision.reason } : {}),
          fingerprint:
            decision.kind === 'nothing' ? decision.record?.fingerprint : decision.fingerprint,
          drifts: status.inProgress ? status.violations.length : 0,
        },
        'drift check',
      );
      return result;
    } finally {
      await state.unlock(clusterName).catch(() => undefined);
    }
  }

  private async act(
    cluster: string,
    setting: { channel: string; everyMinutes: number },
    decision: DriftDecision,
    at: string,
  ): Promise<DriftCheckResult> {
    const { chat, state } = this.options;
    const channel = setting.channel;
    const ids = (drifts: readonly RecordedDrift[]): string[] => drifts.map((d) => d.id);
    switch (decision.kind) {
      case 'nothing': {
        // The same drift still holds: keep its record and its buttons alive, say nothing.
        if (decision.record !== undefined) {
          await state.touchDrifts(ids(decision.record.drifts), DRIFT_ID_TTL_MS);
          await state.saveRecord(cluster, decision.record, DRIFT_RECORD_TTL_MS);
        }
        return { outcome: 'nothing', decision, channel };
      }
      case 'alert': {
        // Post first: a failed post leaves the record as it was, so the next check posts again.
        const { ts } = await chat.post(
          channel,
          driftAlertMessage({
            cluster,
            added: decision.added,
            ongoing: decision.ongoing,
            cleared: decision.cleared,
            everyMinutes: setting.everyMinutes,
            at,
          }),
        );
        const stored: StoredDrift[] = decision.added.map((d) => ({
          id: d.id,
          cluster,
          invariant: d.invariant,
          subject: d.subject,
          message: d.message,
          repair: d.repair,
          fingerprint: decision.fingerprint,
          channel,
          ts,
          postedAt: at,
        }));
        await state.saveDrifts(stored, DRIFT_ID_TTL_MS);
        await state.touchDrifts(ids(decision.ongoing), DRIFT_ID_TTL_MS);
        await state.deleteDrifts(ids(decision.cleared));
        await state.saveRecord(cluster, decision.record, DRIFT_RECORD_TTL_MS);
        this.options.metrics?.driftDetected.inc({ cluster }, decision.added.length);
        return { outcome: 'alert', decision, channel, ts };
      }
      case 'resolved': {
        const { ts } = await chat.post(
          channel,
          driftResolvedMessage({
            cluster,
            cleared: decision.cleared,
            remaining: decision.remaining,
            migrationEnded: decision.migrationEnded,
            at,
          }),
        );
        await state.deleteDrifts(ids(decision.cleared));
        await state.touchDrifts(ids(decision.remaining), DRIFT_ID_TTL_MS);
        await state.saveRecord(cluster, decision.record, DRIFT_RECORD_TTL_MS);
        return { outcome: 'resolved', decision, channel, ts };
      }
    }
  }

  /** The guard no longer runs for `cluster`: its record and drift ids go. */
  async forget(cluster: string): Promise<void> {
    const { state } = this.options;
    const record = await state.record(cluster);
    if (record === undefined) return;
    await state.deleteDrifts(record.drifts.map((d) => d.id));
    await state.saveRecord(cluster, undefined, 0);
  }
}

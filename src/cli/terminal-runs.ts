/**
 * The run engine in a terminal: the same runbooks and step executors as the bot, driven
 * in-process. Mutating runs keep their state in Redis when it answers (the bot's store: `status`
 * and the bot see them, and either can resume them) and otherwise in files, saying so;
 * pre-flight, which writes nothing worth resuming, keeps it in memory.
 */
import { userInfo } from 'node:os';
import { KubeClusterDirectory } from '../adapters/kubernetes/directory.js';
import { createMetrics } from '../adapters/metrics.js';
import { closeRedis, createRedis, redisAnswers } from '../adapters/redis.js';
import { FileRunStore } from '../adapters/run-store/file.js';
import { MemoryRunStore } from '../adapters/run-store/memory.js';
import { RedisAuditLog } from '../adapters/audit/redis.js';
import { RedisRunStore } from '../adapters/run-store/redis.js';
import type { AuditLog } from '../ports/audit-log.js';
import type { ClusterConfig } from '../config.js';
import type { Actor } from '../core/run-state.js';
import { TerminalRunObserver } from '../engine/observers/terminal.js';
import { DefaultRunEnvironment } from '../engine/run-environment.js';
import type { Runs } from '../engine/runs.js';
import type { Logger } from '../log.js';
import { systemClock } from '../ports/clock.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import type { RunStore } from '../ports/run-store.js';
import { startExecution } from './execution.js';
import type { RunStoreSettings } from './terminal-cluster.js';
import type { CliIo } from './types.js';

export interface TerminalRuns {
  runs: Runs;
  store: RunStore;
  directory: ClusterDirectory;
  observer: TerminalRunObserver;
  /** The person at the keyboard, as runs record them. */
  actor: Actor;
  /**
   * Resumes this cluster's unfinished runs (or one of them) that nobody works on, and asks again
   * for the confirmation a killed terminal was waiting for.
   */
  resume(runId?: string): Promise<string[]>;
  close(): Promise<void>;
}

export function terminalActor(): Actor {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // No passwd entry (some containers): the run still records "unknown (terminal)".
  }
  return { kind: 'terminal', user };
}

/** AUDIT_RETENTION_DAYS as the bot reads it (default 400); a bad value falls back to it. */
export function auditRetentionMs(env: Record<string, string | undefined>): number {
  const days = Number(env['AUDIT_RETENTION_DAYS'] ?? 400);
  return (Number.isInteger(days) && days >= 1 && days <= 3_650 ? days : 400) * 86_400_000;
}

export async function openTerminalRuns(
  io: CliIo & { stdin?: NodeJS.ReadableStream & { isTTY?: boolean } },
  cluster: ClusterConfig,
  kubeconfigs: string[],
  logger: Logger,
  /** Redis or files for runs worth resuming; undefined keeps state in memory (pre-flight). */
  durable: RunStoreSettings | undefined,
  showSteps: boolean,
): Promise<TerminalRuns> {
  const directory = new KubeClusterDirectory(
    { clusters: [cluster], defaultKubeconfigs: kubeconfigs },
    logger,
  );
  let store: RunStore = new MemoryRunStore();
  let closeStore = (): Promise<void> => Promise.resolve();
  // Runs from a terminal join the same audit trail as the bot's when they share its Redis.
  let audit: AuditLog | undefined;
  if (durable !== undefined) {
    const { redisUrl, queuePrefix, stateDir } = durable;
    if (await redisAnswers(redisUrl)) {
      const redis = createRedis(redisUrl, 'producer', logger);
      store = new RedisRunStore(redis, queuePrefix);
      audit = new RedisAuditLog(redis, queuePrefix, auditRetentionMs(io.env));
      closeStore = () => closeRedis(redis);
    } else {
      store = new FileRunStore(stateDir);
      io.stderr.write(
        `Redis does not answer at ${redisUrl}: keeping run state in files in ${stateDir} (\`proxy-migrate resume\` picks them up).\n`,
      );
    }
  }
  const observer = new TerminalRunObserver(
    {
      stdin: io.stdin ?? process.stdin,
      stderr: io.stderr,
    },
    showSteps,
  );
  const environment = new DefaultRunEnvironment(
    [cluster],
    directory,
    undefined,
    systemClock,
    logger,
  );
  const execution = startExecution({
    kind: 'in-process',
    environment,
    observers: [observer],
    metrics: createMetrics(),
    clock: systemClock,
    logger,
    store,
    ...(audit === undefined
      ? {}
      : { audit: { retentionMs: auditRetentionMs(io.env), log: audit } }),
  });
  const actor = terminalActor();
  observer.onDecision(async (state, approved) => {
    const at = new Date().toISOString();
    await execution.runs.signal(
      state.id,
      approved
        ? {
            type: 'approved',
            by: actor,
            at,
            ...(state.planHash === undefined ? {} : { planHash: state.planHash }),
          }
        : { type: 'rejected', by: actor, at, reason: 'not confirmed in the terminal' },
    );
  });
  return {
    runs: execution.runs,
    store,
    directory,
    observer,
    actor,
    resume: async (runId) => {
      const ids = await execution.resume(
        'resumed from the terminal (`proxy-migrate resume`)',
        (s) =>
          s.cluster === cluster.name &&
          (runId === undefined || s.id === runId) &&
          // A Slack run waiting for its buttons is the bot's: its card still works there.
          !(s.phase === 'awaiting-approval' && s.requester.kind !== 'terminal'),
      );
      for (const id of ids) {
        const state = await execution.runs.get(id);
        // The prompt died with the process; without a terminal to ask in, the answer is no.
        if (state?.phase === 'awaiting-approval') await observer.approvalRequested(state);
      }
      return ids;
    },
    close: async () => {
      await execution.stop(5_000);
      await closeStore();
    },
  };
}

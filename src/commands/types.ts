/**
 * What a Slack verb is and what it gets. A verb validates its arguments with pure code, acks
 * (within Slack's 3 seconds, before any Redis or Kubernetes call), then does its slow work.
 */
import type { AppConfig, ClusterConfig } from '../config.js';
import type { RunRequest, StartOnce } from '../engine/runs.js';
import type { Logger } from '../log.js';
import type { ChatMessage, ChatPort } from '../ports/chat.js';
import type { AuditLog } from '../ports/audit-log.js';
import type { Clock } from '../ports/clock.js';
import type { ClusterDirectory } from '../ports/cluster.js';
import type { RunStore } from '../ports/run-store.js';

export const SLASH_COMMAND = '/proxy-migrate';

/** The slow side of the bot, as verbs see it; tests and the demo can pass their own. */
export interface CommandServices {
  config: Pick<AppConfig, 'clusters'>;
  runs: {
    start(request: RunRequest): Promise<string>;
    /** Starts the run unless one for the same request (`key`) has not ended. */
    startOnce(request: RunRequest, key: string): Promise<StartOnce>;
  };
  /** The permalink of a message the bot posted (the workspace's URL from auth.test). */
  messageLink?(channel: string, ts: string): string;
  /**
   * Whether a user of the home team is an approver of the cluster (its users and user groups):
   * an approver's `rollback` needs no second approval. Absent: every rollback asks for one.
   */
  isApprover?(cluster: ClusterConfig, userId: string, teamId: string): Promise<boolean>;
  /** Read-only verbs (plan, status) read the clusters themselves, after the ack. */
  directory: ClusterDirectory;
  /** Messages visible to the channel and thread replies (plan, status). */
  chat: ChatPort;
  /** The runs `status` lists (runs in flight). */
  runStore: RunStore;
  clock: Clock;
  /** The audit trail, when the bot keeps one. */
  audit?: AuditLog;
  /**
   * Keeps a run's response_url in this process (never in Redis), so the requester can still be
   * told how it ended when the channel is closed to the bot and a direct message fails too.
   */
  responseUrls?: { rememberResponseUrl(runId: string, responseUrl: string): void };
}

export interface VerbRequest {
  userId: string;
  teamId: string;
  channelId: string;
  /** The command's response_url (30 minutes, 5 uses); see CommandServices.responseUrls. */
  responseUrl?: string;
}

export interface VerbContext {
  args: readonly string[];
  request: VerbRequest;
  services: CommandServices;
  logger: Logger;
  /**
   * Acknowledge the command; a message here is shown only to the person who typed it. Resolves
   * once the bot may do the slow part: when no other request waits for its ack (bounded).
   */
  ack(message?: ChatMessage): Promise<void>;
  /** After ack: another message only the person who typed the command sees. */
  respond(message: ChatMessage): Promise<void>;
}

export interface Verb {
  name: string;
  /** Full usage, e.g. `/proxy-migrate preflight <cluster>`. */
  usage: string;
  summary: string;
  run(ctx: VerbContext): Promise<void>;
}

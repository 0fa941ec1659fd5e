/**
 * ChatPort: how runs talk to people. The Slack adapter implements it over the Web API; tests and
 * the terminal demo can render the same messages elsewhere.
 */
import type { KnownBlock } from '@slack/types';

/** A message as the views render it: blocks plus the plain-text fallback for notifications. */
export interface ChatMessage {
  text: string;
  blocks?: KnownBlock[];
}

export interface PostOptions {
  /** Reply in this thread (the parent message's ts). */
  threadTs?: string;
  /**
   * Names this post (`<run>:card`): when Slack's answer is lost (a timeout), the adapter looks
   * for a message with this key before it posts again, so a slow Slack does not get it twice.
   */
  key?: string;
  /**
   * An earlier process may have posted it and died before keeping its ts (the run was resumed):
   * look for the key before posting, not only after a lost answer.
   */
  mayExist?: boolean;
}

export interface FileUpload {
  filename: string;
  title: string;
  content: string;
  threadTs?: string;
  comment?: string;
}

export interface ChatPort {
  /** Posts a message visible to the channel; resolves to its ts. */
  post(channel: string, message: ChatMessage, options?: PostOptions): Promise<{ ts: string }>;
  /** Edits a message the bot posted earlier (the status card). */
  update(channel: string, ts: string, message: ChatMessage): Promise<void>;
  /** A message only `user` sees. */
  postEphemeral(
    channel: string,
    user: string,
    message: ChatMessage,
    options?: PostOptions,
  ): Promise<void>;
  /** Uploads a text file (a long report) into the channel or thread. */
  uploadFile(channel: string, file: FileUpload): Promise<void>;
  /** Opens (or finds) the direct message channel with `user`; resolves to its id. */
  openDirect(user: string): Promise<string>;
  /**
   * A message only the requester sees, through the response_url of the command that started
   * `runId`; fails when this process does not hold it (another replica took the command) or
   * it expired.
   */
  respondToRun(runId: string, message: ChatMessage): Promise<void>;
}

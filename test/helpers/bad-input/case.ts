/**
 * One bad-input case: the request as it goes on the wire (how it is signed is decided at send
 * time, so timestamps are fresh), and what a correct bot does with it. Every case must end in a
 * clear answer (an ephemeral reply, a modal error or a 4xx) and change nothing.
 */

export const categories = [
  'slash-text',
  'slash-cluster',
  'slash-node',
  'slash-options',
  'slash-channel',
  'slash-fields',
  'slash-foreign',
  'click-value',
  'click-action',
  'click-container',
  'click-team',
  'click-user',
  'click-shape',
  'view-reject',
  'signature',
  'replay',
  'body',
] as const;
export type Category = (typeof categories)[number];

/** How the request is signed: only `valid` carries Slack's signature over these bytes, now. */
export const signings = [
  'valid',
  'forged',
  'wrong-secret',
  'stale',
  'future',
  'missing',
  'bad-timestamp',
  'other-body',
  'upper-hex',
  'v1',
] as const;
export type Signing = (typeof signings)[number];

export interface WireRequest {
  method: string;
  /** Absent: no Content-Type header at all. */
  contentType?: string;
  body: string;
  signing: Signing;
  /** Sent without Content-Length, in chunks, so the edge must cut it off while it streams. */
  chunked?: boolean;
  /** Sent twice; the second delivery must not run (409, or 200 with nothing for a Slack retry). */
  replay?: 'plain' | 'slack-retry';
}

export type Answer =
  /** A 4xx from the edge; nothing may answer through the case's response_url. */
  | { kind: 'http'; statuses: readonly number[] }
  /** 200, and an answer: in the ack, or through the response_url. `refusal`: an error reply. */
  | { kind: 'reply'; refusal: boolean }
  /** 200 with an empty ack, then an ephemeral through the response_url matching `pattern`. */
  | { kind: 'response'; pattern: RegExp }
  /** A 4xx, or 200 with an ephemeral through the response_url (a reshaped payload). */
  | { kind: 'http-or-response' }
  /** A modal submission: 200 with a modal error or update, or an ephemeral to `user`. */
  | { kind: 'view'; user: string };

export interface FuzzCase {
  category: Category;
  /** What was sent, short, for the failure list. */
  describe: string;
  request: WireRequest;
  /** The id of the response_url the request carries (fake.responseUrl(id)). */
  responseId: string;
  answer: Answer;
  /** The refusal is certain to be recorded on the target run (and so in the audit trail). */
  recorded: boolean;
}

/** What a case builder knows about the bot it is aimed at. */
export interface CaseTarget {
  runId: string;
  /** The requester of the target run (four-eyes: may not approve it). */
  requester: string;
  channel: string;
  /** The messages whose buttons act on the run: status card and approval card. */
  messageTs: readonly string[];
  approval: { ts: string; text: string; blocks: unknown[] };
  node: string;
  /** Everyone who may approve cluster-a (users and group members). */
  approvers: readonly string[];
  /** Names that exist, which hostile input must not accidentally be. */
  clusters: readonly string[];
  nodes: readonly string[];
  /** A channel cluster-a may not be driven from. */
  otherChannel: string;
  homeTeam: string;
}

export interface CaseEnv {
  target: CaseTarget;
  /** A fresh response_url id for this case, and its URL on the fake Slack. */
  responseId: string;
  responseUrl: string;
}

export type CaseBuilder = (env: CaseEnv) => FuzzCase;

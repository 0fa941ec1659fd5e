import { checkBlocks } from './slack-limits.js';
import type { Args } from './slack-wire.js';
import { blocksFailure, ok, type Reply } from './slack-workspace.js';

/**
 * The response_urls Slack hands out with commands and interactions. Bolt's `respond()` posts JSON
 * here and throws on any non-2xx status, so limits and expiry answer with HTTP errors, not ok:false.
 */

export interface RecordedResponse {
  id: string;
  body: Args;
  at: number;
  /** 200, 400 for refused blocks or a bad payload, 404 once the URL is used up. */
  status: number;
}

/** The message a response_url belongs to, so `replace_original` can rewrite it. */
export interface ResponseTarget {
  channel: string;
  ts: string;
}

/** Slack lets a response_url be used five times within thirty minutes. */
const usesAllowed = 5;

export class ResponseUrls {
  readonly records: RecordedResponse[] = [];
  private readonly uses = new Map<string, number>();
  private readonly targets = new Map<string, ResponseTarget>();
  private counter = 0;
  private readonly expired = new Set<string>();
  private allExpired = false;

  constructor(private readonly applyToMessage: (target: ResponseTarget, body: Args) => void) {}

  /** Returns the id to put in the URL path. */
  register(id?: string, target?: ResponseTarget): string {
    this.counter += 1;
    const key = id ?? `r${this.counter}`;
    if (target) this.targets.set(key, target);
    return key;
  }

  /** Slack's answer to a response_url past its 30 minutes: 404 expired_url. */
  expire(id?: string): void {
    if (id === undefined) this.allExpired = true;
    else this.expired.add(id);
  }

  clear(): void {
    this.allExpired = false;
    this.expired.clear();
    this.records.length = 0;
    this.uses.clear();
    this.targets.clear();
  }

  /** Every attempt counts towards the five uses and is recorded, refused or not. */
  receive(id: string, raw: Buffer): Reply {
    const uses = (this.uses.get(id) ?? 0) + 1;
    this.uses.set(id, uses);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      parsed = undefined;
    }
    const body =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
        ? (parsed as Args)
        : undefined;
    const reply = this.decide(id, uses, body);
    this.records.push({
      id,
      body: body ?? { raw: raw.toString('utf8') },
      at: Date.now(),
      status: reply.status,
    });
    return reply;
  }

  private decide(id: string, uses: number, body: Args | undefined): Reply {
    if (!body) return { status: 400, body: { ok: false, error: 'invalid_payload' } };
    if (this.allExpired || this.expired.has(id))
      return { status: 404, body: { ok: false, error: 'expired_url' } };
    if (uses > usesAllowed) return { status: 404, body: { ok: false, error: 'expired_url' } };
    const problem = body.blocks === undefined ? undefined : checkBlocks(body.blocks);
    if (problem) return blocksFailure(problem, 400);
    const target = this.targets.get(id);
    if (target) this.applyToMessage(target, body);
    return ok();
  }
}

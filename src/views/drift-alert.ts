/**
 * The drift guard's messages: the alert (each new drift with what broke, the repair the
 * invariant proposes and a button that asks for it through the approval path) and the short
 * "resolved" when drifts clear. The button's value is the drift id only.
 */
import type { Button, KnownBlock, SectionBlock } from '@slack/types';
import type { Drift, RecordedDrift } from '../core/drift.js';
import { ACTION } from '../interactions/ids.js';
import type { ChatMessage } from '../ports/chat.js';
import {
  BUDGET,
  SLACK_LIMITS,
  blockTextLength,
  context,
  escape,
  section,
  truncate,
  utcTime,
} from './blocks.js';

/** Drifts shown with their own section and button; the rest are counted. */
export const MAX_DRIFTS_SHOWN = 10;
/** What each line around the drifts may take of the message's text budget. */
const LIST_LINE = 1_000;
const FRAME = 4 * LIST_LINE;

export interface DriftAlertView {
  cluster: string;
  added: readonly Drift[];
  ongoing: readonly Drift[];
  cleared: readonly RecordedDrift[];
  everyMinutes: number;
  at: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const name = (d: Pick<Drift, 'invariant' | 'subject'>): string => `${d.invariant} · ${d.subject}`;

function repairButton(d: Drift): Button {
  return {
    type: 'button',
    action_id: ACTION.repairDrift,
    text: { type: 'plain_text', text: 'Request repair', emoji: true },
    value: d.id,
  };
}

function driftSection(d: Drift): SectionBlock {
  const text = `*${escape(d.invariant)}* · ${escape(d.subject)}\n${escape(d.message)}\n*Repair:* ${escape(d.repair)}`;
  return {
    ...section(truncate(text, SLACK_LIMITS.sectionText)),
    block_id: `drift-${d.id}`,
    accessory: repairButton(d),
  };
}

export function driftAlertMessage(v: DriftAlertView): ChatMessage {
  const blocks: KnownBlock[] = [
    section(
      `:rotating_light: *Drift* · ${escape(v.cluster)} · ${plural(v.added.length, 'invariant')} broken while a migration is in progress`,
    ),
  ];
  // As many drifts as fit (each with its button) within Slack's total text for one message.
  let size = blockTextLength(blocks) + FRAME;
  let shown = 0;
  for (const d of v.added.slice(0, MAX_DRIFTS_SHOWN)) {
    const block = driftSection(d);
    const length = blockTextLength([block]);
    if (size + length > BUDGET.messageText) break;
    blocks.push(block);
    size += length;
    shown += 1;
  }
  const more = v.added.length - shown;
  if (more > 0) {
    blocks.push(
      context(
        `…and ${plural(more, 'more drift')}: \`proxy-migrate status ${escape(v.cluster)}\` lists every one with its repair.`,
      ),
    );
  }
  if (v.ongoing.length > 0) {
    blocks.push(
      context(
        truncate(
          `Still broken from an earlier alert: ${v.ongoing.map((d) => escape(name(d))).join(', ')}`,
          LIST_LINE,
        ),
      ),
    );
  }
  if (v.cleared.length > 0) {
    blocks.push(
      context(
        truncate(`Holds again: ${v.cleared.map((d) => escape(name(d))).join(', ')}`, LIST_LINE),
      ),
    );
  }
  blocks.push(
    context(
      `Drift guard · checked ${utcTime(v.at)} · every ${plural(v.everyMinutes, 'min', 'min')} while a migration is in progress · posts again only when the drift changes · a repair asks for approval first`,
    ),
  );
  const first = v.added[0];
  const text = truncate(
    `Drift on ${v.cluster}: ${first === undefined ? 'invariants broken' : name(first)}${v.added.length > 1 ? ` and ${`${v.added.length - 1} more`}` : ''}`,
    SLACK_LIMITS.sectionText,
  );
  return { text, blocks };
}

export interface DriftResolvedView {
  cluster: string;
  cleared: readonly RecordedDrift[];
  remaining: readonly Drift[];
  migrationEnded: boolean;
  at: string;
}

export function driftResolvedMessage(v: DriftResolvedView): ChatMessage {
  const what = v.cleared.map(name).join(', ');
  const tail = v.migrationEnded
    ? ' (no migration is in progress any more)'
    : v.remaining.length > 0
      ? `; ${plural(v.remaining.length, 'drift')} still broken: ${v.remaining.map(name).join(', ')}`
      : '';
  const line = truncate(
    `Drift resolved on ${v.cluster}: ${what} ${v.cleared.length === 1 ? 'holds' : 'hold'} again${tail}.`,
    BUDGET.sectionText,
  );
  return {
    text: truncate(line, SLACK_LIMITS.sectionText),
    blocks: [
      section(`:white_check_mark: ${escape(line)}`),
      context(`Drift guard · checked ${utcTime(v.at)}`),
    ],
  };
}

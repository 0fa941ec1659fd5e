/**
 * Block Kit as terminal text, for the demo: what Slack would show, readable in a terminal.
 * mrkdwn keeps its meaning (bold, code, links, mentions) without Slack's escaping.
 */
import { paint } from './paint.js';

interface TextObject {
  type?: string;
  text?: string;
}

interface Element {
  type?: string;
  text?: TextObject | string;
}

interface AnyBlock {
  type?: string;
  text?: TextObject;
  fields?: TextObject[];
  elements?: Element[];
}

const elementText = (e: Element): string =>
  typeof e.text === 'string' ? e.text : (e.text?.text ?? '');

export interface TextStyle {
  colour: boolean;
}

/** The emoji codes the product's messages use, as the characters Slack would show. */
const EMOJI: Record<string, string> = {
  no_entry: '⛔',
  warning: '⚠️ ',
  information_source: 'ℹ️ ',
  white_check_mark: '✅',
  mag: '🔍',
  hourglass_flowing_sand: '⏳',
  x: '❌',
  large_green_circle: '🟢',
  no_entry_sign: '🚫',
  red_circle: '🔴',
  rotating_light: '🚨',
  arrows_counterclockwise: '🔄',
  clipboard: '📋',
  bar_chart: '📊',
  large_blue_circle: '🔵',
  white_circle: '⚪',
  grey_question: '❔',
  lock: '🔒',
  unlock: '🔓',
  wrench: '🔧',
};

function unescape(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** mrkdwn to plain text: links and mentions readable, *bold* in bold, ```code``` indented. */
export function mrkdwnToText(text: string, style: TextStyle): string {
  const bold = (s: string): string => paint(style.colour, 'bold', s);
  const dim = (s: string): string => paint(style.colour, 'dim', s);
  let out = text
    .replace(/<@([UW][A-Z0-9]+)>/g, '@$1')
    .replace(/<#([CG][A-Z0-9]+)(\|[^>]*)?>/g, '#$1')
    .replace(/<!subteam\^(S[A-Z0-9]+)(\|[^>]*)?>/g, '@group:$1')
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(
      /```([\s\S]*?)```/g,
      (_m, code: string) =>
        `\n${code
          .split('\n')
          .map((l) => `    ${dim(l)}`)
          .join('\n')}`,
    )
    .replace(
      /(^|[\s(])\*([^*\n]+)\*(?=[\s).,:;]|$)/g,
      (_m, pre: string, inner: string) => `${pre}${bold(inner)}`,
    );
  out = out.replace(/:([a-z_]+):/g, (m, name: string) => EMOJI[name] ?? m);
  return unescape(out);
}

/** One message's blocks (or its fallback text when it has none) as terminal lines. */
export function blocksToText(
  blocks: readonly unknown[] | undefined,
  fallback: string,
  style: TextStyle,
): string {
  if (blocks === undefined || blocks.length === 0) return mrkdwnToText(fallback, style);
  const lines: string[] = [];
  for (const raw of blocks as AnyBlock[]) {
    switch (raw.type) {
      case 'header':
        lines.push(mrkdwnToText(`*${raw.text?.text ?? ''}*`, style));
        break;
      case 'section':
        if (raw.text?.text !== undefined) lines.push(mrkdwnToText(raw.text.text, style));
        for (const field of raw.fields ?? []) lines.push(mrkdwnToText(field.text ?? '', style));
        break;
      case 'context':
        lines.push(
          (raw.elements ?? [])
            .map((e) =>
              mrkdwnToText(typeof e.text === 'string' ? e.text : (e.text?.text ?? ''), style),
            )
            .join('  ·  '),
        );
        break;
      case 'actions':
        lines.push((raw.elements ?? []).map((e) => `[ ${elementText(e)} ]`).join(' '));
        break;
      case 'divider':
        lines.push('─'.repeat(40));
        break;
      default:
        if (raw.text?.text !== undefined) lines.push(mrkdwnToText(raw.text.text, style));
    }
  }
  return lines.join('\n');
}

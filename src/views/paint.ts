/**
 * Terminal colour through Node's own util.styleText. Whether a stream gets colour is decided once
 * by the caller (src/cli/colour.ts: a TTY and no NO_COLOR), so styleText's own stream check is off.
 */
import { styleText } from 'node:util';

export type Style = Parameters<typeof styleText>[0];

/** `text` in `style` when colour is on, unchanged otherwise. */
export function paint(colour: boolean, style: Style, text: string): string {
  return colour ? styleText(style, text, { validateStream: false }) : text;
}

/**
 * Whether a stream gets ANSI colour: only a terminal does, and never when NO_COLOR is set to
 * anything but the empty string (https://no-color.org). Every coloured output asks here.
 */
import type { CliIo } from './types.js';

export function colourOn(io: Pick<CliIo, 'env'>, stream: NodeJS.WritableStream): boolean {
  const noColour = io.env.NO_COLOR;
  if (noColour !== undefined && noColour !== '') return false;
  return (stream as { isTTY?: boolean }).isTTY === true;
}

import { describe, expect, it } from 'vitest';
import { colourOn } from '../../../src/cli/colour.js';

const tty = { isTTY: true, write: () => true } as unknown as NodeJS.WritableStream;
const pipe = { write: () => true } as unknown as NodeJS.WritableStream;

describe('colourOn', () => {
  it('colours a terminal', () => {
    expect(colourOn({ env: {} }, tty)).toBe(true);
  });

  it('never colours a pipe or a file', () => {
    expect(colourOn({ env: {} }, pipe)).toBe(false);
  });

  it.each(['1', 'true', '0', 'anything'])('NO_COLOR=%s turns it off on a terminal', (value) => {
    expect(colourOn({ env: { NO_COLOR: value } }, tty)).toBe(false);
  });

  it('an empty NO_COLOR is as if unset (no-color.org)', () => {
    expect(colourOn({ env: { NO_COLOR: '' } }, tty)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { OpenStream } from '../../../../src/server/streams/open-streams.js';
import { OpenStreams } from '../../../../src/server/streams/open-streams.js';

describe('OpenStreams', () => {
  it('sweeps while streams are open and stops each stream once', async () => {
    let swept: readonly OpenStream[] = [];
    const streams = new OpenStreams((open) => {
      swept = open;
      for (const s of open) if (s.kind === 'watch') streams.drop(s);
    }, 10);
    let watchStops = 0;
    let logStops = 0;
    streams.add('watch', 'pods', () => (watchStops += 1));
    const untrack = streams.add('log', 'pods/log', () => (logStops += 1));
    await new Promise((r) => setTimeout(r, 50));
    expect(watchStops).toBe(1);
    expect(swept.map((s) => s.resource)).toEqual(['pods/log']);
    untrack();
    expect(streams.size).toBe(0);
    streams.add('exec', 'pods/exec', () => (logStops += 1));
    streams.stopAll();
    streams.stopAll();
    expect(logStops).toBe(1);
  });
});

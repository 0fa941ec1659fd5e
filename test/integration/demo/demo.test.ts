// `npm run demo`: the whole bot stack against the twin, Slack printed in the terminal.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runDemo, type DemoOptions } from '../../../src/demo/run-demo.js';
import { REDIS_URL } from '../../helpers/redis.js';

function capture(): { out: Writable; text: () => string } {
  let text = '';
  return {
    out: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        callback();
      },
    }),
    text: () => text,
  };
}

function options(over: Partial<DemoOptions>, out: Writable): DemoOptions {
  return {
    scenario: 'kubeadm-ipvs',
    redisUrl: REDIS_URL,
    inProcess: false,
    speed: 20,
    out,
    colour: false,
    timeoutMs: 60_000,
    ...over,
  };
}

describe('the demo', () => {
  it('runs the pre-flight through BullMQ when Redis answers and prints the Slack messages', async () => {
    const c = capture();
    expect(await runDemo(options({}, c.out))).toBe(0);
    const text = c.text();
    expect(text).toMatch(/^queue {5}BullMQ on redis:\/\//m);
    expect(text).toContain('@alice in #ops:  /proxy-migrate preflight kubeadm-ipvs');
    expect(text).toContain('── only @alice sees this');
    expect(text).toContain('⏳ Pre-flight for kubeadm-ipvs queued.');
    expect(text).toContain('── #ops · message edited in place');
    expect(text).toContain(
      '🔍 Pre-flight · kubeadm-ipvs · v1.33.4 · kubeadm · mode ipvs (6 nodes, 4 pools)',
    );
    expect(text).toMatch(
      /⛔ kernel-version · pool legacy · 1 of 1 node \(legacy-1\) on kernel 5\.4/,
    );
    expect(text).toContain('── #ops · reply in the thread');
    expect(text).toMatch(/✔ report delivered \(run pf-[a-z0-9-]+\)\n$/);
  });

  it('runs in-process, and says so, when Redis does not answer', async () => {
    const c = capture();
    expect(await runDemo(options({ redisUrl: 'redis://127.0.0.1:1' }, c.out))).toBe(0);
    expect(c.text()).toContain('queue     in-process (no Redis answered at redis://127.0.0.1:1');
    expect(c.text()).toContain('✔ report delivered');
  });
});

// `npm run demo`: the whole bot stack against the twin, Slack printed in the terminal.
import { PassThrough, Writable } from 'node:stream';
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
      /⛔ kernel-version · pool legacy: 1 of 1 node \(legacy-1\) on kernel 5\.4/,
    );
    expect(text).toContain('── #ops · reply in the thread');
    // The clusters file the bot reads is shown, so a reader can see where the pools come from.
    expect(text).toMatch(/^clusters {2}\/.*clusters\.yaml$/m);
    expect(text).toContain('poolLabel: node-pool');
    // The rest of the story, in order: plan, cutover, the refused self-approval, the approval,
    // the result with its Rollback button, the rollback, and a blocked node refused.
    const order = [
      '@alice in #ops:  /proxy-migrate plan kubeadm-ipvs blue-1',
      'kubectl get nodes -L proxy-migrate.io/mode -w',
      '@alice in #ops:  /proxy-migrate cutover kubeadm-ipvs blue-1',
      '@alice presses Approve',
      'Not approved: you requested this run, and four-eyes is on',
      '@bob presses Approve',
      'blue-1 now runs nftables, verified',
      '@bob presses Roll back blue-1',
      'blue-1 is back on the original kube-proxy (IPVS), verified',
      '@alice in #ops:  /proxy-migrate cutover kubeadm-ipvs legacy-1',
    ];
    const at = order.map((line) => text.indexOf(line));
    expect(
      at.every((i) => i >= 0),
      JSON.stringify(at),
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toMatch(
      /✔ report delivered \(run pf-[a-z0-9-]+\)\n✔ self-approval refused \(four-eyes\)\n✔ blue-1 cut over to nftables and verified \(run co-[a-z0-9-]+\)\n✔ blue-1 rolled back to IPVS and verified \(run rb-[a-z0-9-]+\)\n✔ cutover of legacy-1 refused before any write: node pre-flight blocks legacy-1: kernel-version: [^\n]+\n$/,
    );
  });

  it('runs in-process, and says so, when Redis does not answer', async () => {
    const c = capture();
    expect(await runDemo(options({ redisUrl: 'redis://127.0.0.1:1' }, c.out))).toBe(0);
    expect(c.text()).toContain('queue     in-process (no Redis answered at redis://127.0.0.1:1');
    expect(c.text()).toContain('✔ report delivered');
    expect(c.text()).toContain('✔ blue-1 rolled back to IPVS and verified');
  });

  it('lets a person type the commands and press the buttons with --interactive', async () => {
    const c = capture();
    const input = new PassThrough();
    input.end(
      [
        '/proxy-migrate cutover kubeadm-ipvs blue-2',
        'as carol',
        'press approve',
        'as bob',
        'press reject change freeze',
        'press sideways',
        'quit',
      ].join('\n'),
    );
    expect(await runDemo(options({ input }, c.out))).toBe(0);
    const text = c.text();
    expect(text).toContain('Type what a person would do in #ops:');
    expect(text).toContain('@carol presses Approve');
    expect(text).toContain('Not approved: you are not an approver of cluster kubeadm-ipvs.');
    expect(text).toContain('@bob gives the reason: change freeze');
    expect(text).toContain('Rejected by @U0BOB');
    expect(text).toContain('No such button: approve, reject, rollback or repair.');
  });
});

import { describe, expect, it } from 'vitest';
import {
  ByteBudget,
  formatLine,
  rfc3339NanoFixed,
  selectLines,
} from '../../../../src/server/streams/log-format.js';
import { resolveContainer } from '../../../../src/server/streams/pod-target.js';
import type { KubeObject } from '../../../../src/apimachinery/types.js';

const t0 = Date.parse('2025-08-11T08:30:10.123Z');
const lines = [0, 1, 2, 3].map((i) => ({ time: t0 + i * 1000, text: `line ${i}` }));

describe('log formatting', () => {
  it('writes fixed-width RFC 3339 nano timestamps like the kubelet', () => {
    expect(rfc3339NanoFixed(t0)).toBe('2025-08-11T08:30:10.123000000Z');
    expect(rfc3339NanoFixed(t0 + 0.5)).toBe('2025-08-11T08:30:10.123500000Z');
    expect(formatLine(lines[0]!, true)).toBe('2025-08-11T08:30:10.123000000Z line 0\n');
    expect(formatLine({ time: t0, text: 'x\n' }, false)).toBe('x\n');
  });

  it('applies sinceSeconds before tailLines', () => {
    const opts = { timestamps: false, sinceMs: undefined, tailLines: undefined };
    expect(selectLines(lines, opts)).toHaveLength(4);
    expect(selectLines(lines, { ...opts, tailLines: 2 }).map((l) => l.text)).toEqual([
      'line 2',
      'line 3',
    ]);
    expect(selectLines(lines, { ...opts, tailLines: 0 })).toEqual([]);
    expect(selectLines(lines, { ...opts, sinceMs: t0 + 2000 }).map((l) => l.text)).toEqual([
      'line 2',
      'line 3',
    ]);
    expect(selectLines(lines, { ...opts, sinceMs: t0 + 1000, tailLines: 1 })).toHaveLength(1);
  });

  it('cuts output at limitBytes', () => {
    const budget = new ByteBudget(10);
    expect(budget.take('line 0\n').toString()).toBe('line 0\n');
    expect(budget.take('line 1\n').toString()).toBe('lin');
    expect(budget.exhausted).toBe(true);
    expect(budget.take('more').length).toBe(0);
    expect(new ByteBudget(undefined).take('x'.repeat(1000)).length).toBe(1000);
  });
});

describe('container choice', () => {
  const pod = (containers: string[], init: string[] = []): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: {
      containers: containers.map((name) => ({ name })),
      initContainers: init.map((name) => ({ name })),
    },
  });

  it('uses the only container or the requested one, with the apiserver messages', () => {
    expect(resolveContainer(pod(['kube-proxy']), null)).toBe('kube-proxy');
    expect(resolveContainer(pod(['a', 'b'], ['init']), 'init')).toBe('init');
    expect(() => resolveContainer(pod(['a']), 'nope')).toThrow(
      'container nope is not valid for pod p',
    );
    expect(() => resolveContainer(pod(['a', 'b']), '')).toThrow(
      'a container name must be specified for pod p, choose one of: [a b]',
    );
    expect(() => resolveContainer(pod(['a', 'b'], ['i']), null)).toThrow(
      'choose one of: [a b] or one of the init containers: [i]',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { manifestYaml, toYaml } from '../../../src/core/safe-yaml.js';

describe('toYaml', () => {
  it('quotes what YAML would misread and leaves plain words and durations bare', () => {
    expect(
      toYaml({
        a: 'true',
        b: '127.0.0.1:10249',
        c: '1h0m0s',
        d: [],
        e: {},
        f: null,
        g: 'nftables',
        h: [{ x: 1, y: 'no' }],
      }),
    ).toBe(
      [
        'a: "true"',
        'b: "127.0.0.1:10249"',
        'c: 1h0m0s',
        'd: []',
        'e: {}',
        'f: null',
        'g: nftables',
        'h:',
        '  - x: 1',
        '    "y": "no"',
      ].join('\n'),
    );
  });

  it('writes lists in flow style on request, for a snippet inside a sentence', () => {
    const line = toYaml({ nodePortAddresses: ['0.0.0.0/0', '::/0'], on: ['yes'] }, { flow: true });
    expect(line).toBe('nodePortAddresses: ["0.0.0.0/0", "::/0"]\n"on": ["yes"]');
    // A YAML 1.1 reader (kube-proxy's sigs.k8s.io/yaml) gets strings back, not booleans.
    expect(parse(line, { version: '1.1' })).toEqual({
      nodePortAddresses: ['0.0.0.0/0', '::/0'],
      on: ['yes'],
    });
  });

  it('leaves an argument with = bare, as k3s config files write them', () => {
    expect(toYaml({ 'kube-proxy-arg': ['proxy-mode=nftables'] })).toBe(
      'kube-proxy-arg:\n  - proxy-mode=nftables',
    );
  });
});

describe('manifestYaml', () => {
  const tricky = {
    a: 'yes',
    b: 'on',
    c: 'y',
    d: '0644',
    e: '1_000',
    f: '0.0.0.0/0',
    k: '::/0',
    g: '30s',
    h: '',
    i: null,
    j: 'line one\nline two\n',
  };

  it('reads back identically with a YAML 1.1 reader, as kube-proxy reads its file', () => {
    const text = manifestYaml(tricky);
    expect(parse(text, { version: '1.1' })).toEqual(tricky);
    expect(text).toContain('a: "yes"\nb: "on"\nc: "y"\nd: "0644"\ne: "1_000"\n');
  });

  it('quotes no more than it must, so a rewritten file differs only where its values do', () => {
    const text = manifestYaml(tricky);
    expect(text).toContain('f: 0.0.0.0/0\nk: "::/0"\ng: 30s\nh: ""\ni: null\n');
    expect(text).toContain('j: |\n  line one\n  line two\n');
  });

  it('never folds a long value', () => {
    const long = 'x'.repeat(200);
    expect(manifestYaml({ long })).toBe(`long: ${long}\n`);
  });
});

describe('toYaml and YAML 1.1', () => {
  it('keeps yes/on strings for a YAML 1.1 reader', () => {
    const value = { a: 'yes', b: 'on', c: 'off', d: 'Y' };
    expect(parse(toYaml(value), { version: '1.1' })).toEqual(value);
  });
});

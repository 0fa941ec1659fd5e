import { describe, expect, it } from 'vitest';
import { toYaml } from '../../../../src/checks/support/yaml.js';

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
});

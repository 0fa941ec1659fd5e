import { describe, expect, it } from 'vitest';
import {
  clippedList,
  evidenceList,
  nameList,
  plural,
} from '../../../../src/checks/support/text.js';

const names = (n: number) => Array.from({ length: n }, (_, i) => `n${i + 1}`);

describe('text', () => {
  it('counts with the right noun', () => {
    expect(plural(1, 'node')).toBe('1 node');
    expect(plural(2, 'node')).toBe('2 nodes');
    expect(plural(3, 'policy', 'policies')).toBe('3 policies');
  });

  it('names a few and counts the rest', () => {
    expect(nameList(names(2))).toBe('n1, n2');
    expect(nameList(names(4), 2)).toBe('n1, n2 and 2 more');
    expect(evidenceList(names(3), (n) => `${n}: x`, 2)).toBe('n1: x; n2: x; and 1 more');
    expect(evidenceList(names(2), (n) => n)).toBe('n1; n2');
    expect(clippedList(names(11))).toBe('n1, n2, n3, n4, n5, n6, n7, n8, n9, n10, …');
    expect(clippedList(names(3), { max: 2, total: true })).toBe('n1, n2, … (3)');
    expect(clippedList(names(2), { total: true })).toBe('n1, n2');
  });
});

import { describe, expect, it } from 'vitest';
import { countNodes, entriesOf, subGroup } from '../../../src/checks/group.js';

const group = { pool: 'blue', nodes: ['blue-1', 'blue-2', 'blue-3'], total: 4 };

describe('group helpers', () => {
  it('picks the group’s entries in its order and counts a part of it', () => {
    const byNode = new Map([
      ['blue-3', { node: 'blue-3', kind: 'a' }],
      ['red-1', { node: 'red-1', kind: 'a' }],
      ['blue-1', { node: 'blue-1', kind: 'b' }],
    ]);
    const entries = entriesOf(group, byNode);
    expect(entries.map((e) => e.node)).toEqual(['blue-1', 'blue-3']);
    expect(countNodes(subGroup(group, entries))).toBe('2 of 4 nodes (blue-1, blue-3)');
  });
});

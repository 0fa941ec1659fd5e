import { describe, expect, it } from 'vitest';
import {
  countNodes,
  entriesOf,
  poolFinding,
  poolParts,
  probesSkipped,
  subGroup,
} from '../../../src/checks/group.js';
import { ctxOf, facts, poolNodes } from '../../fixtures/checks-b.js';

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

  it('joins a pool finding’s parts and leaves the remedy out when there is none', () => {
    const parts = poolParts();
    parts.titles.push('a', 'b');
    parts.details.push('One.', 'Two.');
    const info = poolFinding('x', 'info', group, parts, ['cmd']);
    expect(info).toEqual({
      check: 'x',
      severity: 'info',
      scope: { kind: 'pool', name: 'blue' },
      subjects: ['blue-1', 'blue-2', 'blue-3'],
      title: 'a; b',
      detail: 'One. Two.',
      commands: ['cmd'],
    });
    parts.remedies.push('Fix it.', 'Then this.');
    expect(poolFinding('x', 'warn', group, parts, []).remedy).toBe('Fix it. Then this.');
  });

  it('notes skipped node probes once, only when there are nodes and no probe ran', () => {
    const note = { what: 'Thing not checked', detail: 'Why.', commands: ['look'] };
    const nodes = poolNodes('blue', 2);
    expect(probesSkipped(ctxOf({ nodes }), 'x', note)).toMatchObject({
      check: 'x',
      severity: 'info',
      scope: { kind: 'cluster', name: 'cluster-a' },
      title: 'Thing not checked: node probes were skipped on 2 nodes',
      detail: 'Why.',
      commands: ['look'],
    });
    expect(probesSkipped(ctxOf({}), 'x', note)).toBeUndefined();
    expect(
      probesSkipped(ctxOf({ nodes, nodeFacts: [facts('blue-1')] }), 'x', note),
    ).toBeUndefined();
  });
});

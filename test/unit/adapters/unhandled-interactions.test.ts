import { describe, expect, it } from 'vitest';
import { unknownInteraction } from '../../../src/adapters/slack/unhandled-interactions.js';
import { actionIds, viewIds } from '../../../src/interactions/ids.js';

const known = { actions: actionIds, views: viewIds };

describe('unknownInteraction', () => {
  it('passes every known action and view id on to its own listener', () => {
    for (const id of actionIds) {
      expect(
        unknownInteraction({ type: 'block_actions', actions: [{ action_id: id }] }, known),
      ).toBeUndefined();
    }
    for (const id of viewIds) {
      expect(
        unknownInteraction({ type: 'view_submission', view: { callback_id: id } }, known),
      ).toBeUndefined();
      expect(
        unknownInteraction({ type: 'view_closed', view: { callback_id: id } }, known),
      ).toBeUndefined();
    }
  });

  it('names unknown buttons, forms, shortcuts and option lists', () => {
    expect(
      unknownInteraction({ type: 'block_actions', actions: [{ action_id: 'old' }] }, known),
    ).toEqual({ kind: 'action', id: 'old' });
    expect(
      unknownInteraction({ type: 'view_submission', view: { callback_id: 'old' } }, known),
    ).toEqual({ kind: 'view', id: 'old' });
    expect(unknownInteraction({ type: 'view_closed', view: {} }, known)).toEqual({
      kind: 'view-closed',
      id: '',
    });
    expect(unknownInteraction({ type: 'shortcut', callback_id: 'x' }, known)).toEqual({
      kind: 'shortcut',
      id: 'x',
    });
    expect(unknownInteraction({ type: 'message_action', callback_id: 'x' }, known)).toEqual({
      kind: 'shortcut',
      id: 'x',
    });
    expect(unknownInteraction({ type: 'block_suggestion', action_id: 'x' }, known)).toEqual({
      kind: 'options',
      id: 'x',
    });
    expect(unknownInteraction({ type: 'dialog_submission', callback_id: 'x' }, known)).toEqual({
      kind: 'dialog',
      id: 'x',
    });
  });

  it('leaves commands and events alone, and cuts long ids short', () => {
    expect(unknownInteraction({ command: '/proxy-migrate' }, known)).toBeUndefined();
    expect(unknownInteraction({ type: 'event_callback', event: {} }, known)).toBeUndefined();
    expect(unknownInteraction(null, known)).toBeUndefined();
    const long = unknownInteraction({ type: 'shortcut', callback_id: 'x'.repeat(5000) }, known);
    expect(long?.id).toHaveLength(100);
  });
});

/**
 * Every interaction is acknowledged within Slack's 3 seconds, even one the bot no longer knows: a
 * button from an old message, a renamed modal, a shortcut from another app version. Without this,
 * Bolt finds no listener, never acks, answers 404 after 3 s and logs an error per click. This
 * global middleware acts only on ids that are NOT in src/interactions/ids.ts; known ids go on to
 * their own listeners untouched.
 */
import type { App, RespondArguments } from '@slack/bolt';
import { actionIds, viewIds } from '../../interactions/ids.js';
import type { Logger } from '../../log.js';

export const UNHANDLED_REPLY =
  'This button is no longer handled by proxy-migrate, so nothing was done. Run the command again for a fresh message.';
export const UNHANDLED_FORM =
  'This form is no longer handled by proxy-migrate, so nothing was done. Run the command again.';

export interface KnownIds {
  actions: readonly string[];
  views: readonly string[];
}

export type InteractionKind = 'action' | 'options' | 'view' | 'view-closed' | 'shortcut' | 'dialog';

export interface UnknownInteraction {
  kind: InteractionKind;
  /** The unknown action or callback id, cut short for logs. */
  id: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const idOf = (value: unknown, key: string): string =>
  isObject(value) && typeof value[key] === 'string' ? value[key] : '';

/** The interaction, when it is one and none of its ids is known; undefined otherwise. */
export function unknownInteraction(body: unknown, known: KnownIds): UnknownInteraction | undefined {
  if (!isObject(body)) return undefined;
  const short = (id: string): string => id.slice(0, 100);
  switch (body.type) {
    case 'block_actions':
    case 'interactive_message': {
      const actions = Array.isArray(body.actions) ? (body.actions as unknown[]) : [];
      const ids = actions.map((action) =>
        body.type === 'block_actions' ? idOf(action, 'action_id') : idOf(action, 'name'),
      );
      if (ids.some((id) => known.actions.includes(id))) return undefined;
      return { kind: 'action', id: short(ids[0] ?? '') };
    }
    case 'block_suggestion': {
      const id = idOf(body, 'action_id');
      return known.actions.includes(id) ? undefined : { kind: 'options', id: short(id) };
    }
    case 'view_submission':
    case 'view_closed': {
      const id = idOf(body.view, 'callback_id');
      if (known.views.includes(id)) return undefined;
      return { kind: body.type === 'view_closed' ? 'view-closed' : 'view', id: short(id) };
    }
    case 'shortcut':
    case 'message_action': {
      const id = idOf(body, 'callback_id');
      if (known.actions.includes(id) || known.views.includes(id)) return undefined;
      return { kind: 'shortcut', id: short(id) };
    }
    case 'dialog_submission':
    case 'dialog_suggestion':
    case 'dialog_cancellation':
      return { kind: 'dialog', id: short(idOf(body, 'callback_id')) };
    default:
      return undefined;
  }
}

type Ack = (response?: unknown) => Promise<void>;
type Respond = (message: RespondArguments) => Promise<unknown>;

const formGone = {
  response_action: 'update',
  view: {
    type: 'modal',
    title: { type: 'plain_text', text: 'proxy-migrate' },
    close: { type: 'plain_text', text: 'Close' },
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: UNHANDLED_FORM } }],
  },
} as const;

/** Registers the middleware; known ids default to the bot's own list. */
export function registerUnhandledInteractions(
  app: App,
  logger: Logger,
  known: KnownIds = { actions: actionIds, views: viewIds },
): void {
  const log = logger.child({ component: 'slack-interactions' });
  app.use(async (args) => {
    const unknown = unknownInteraction(args.body, known);
    if (unknown === undefined) {
      await args.next();
      return;
    }
    const { ack, respond } = args as unknown as { ack?: Ack; respond?: Respond };
    log.info(unknown, 'unhandled interaction acknowledged');
    if (ack === undefined) return;
    switch (unknown.kind) {
      case 'options':
        await ack({ options: [] });
        return;
      case 'view':
        await ack(formGone);
        return;
      case 'view-closed':
      case 'dialog':
        await ack();
        return;
      case 'action':
      case 'shortcut':
        await ack();
        if (respond === undefined) return;
        try {
          await respond({
            response_type: 'ephemeral',
            replace_original: false,
            text: UNHANDLED_REPLY,
          });
        } catch (error) {
          log.warn(
            { err: { message: (error as Error).message } },
            'could not answer an unhandled interaction',
          );
        }
        return;
    }
  });
}

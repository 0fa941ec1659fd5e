/**
 * `demo --interactive`: the person at the terminal types the slash commands and presses the
 * buttons, as any of three people (alice and bob approve; carol does not), and sees every
 * message the bot sends. One line at a time, each finished before the next is read.
 */
import { createInterface } from 'node:readline';
import { ACTION } from '../interactions/ids.js';
import type { LocalMessage } from './local-slack.js';

export const PEOPLE = { alice: 'U0ALICE', bob: 'U0BOB', carol: 'U0CAROL' } as const;
export type Person = keyof typeof PEOPLE;

const BUTTONS: Record<string, { action: string; label: string }> = {
  approve: { action: ACTION.approve, label: 'Approve' },
  reject: { action: ACTION.reject, label: 'Reject' },
  rollback: { action: ACTION.rollback, label: 'Roll back' },
  repair: { action: ACTION.repairDrift, label: 'Request repair' },
};

export interface InteractiveDeps {
  input: NodeJS.ReadableStream;
  write(line?: string): void;
  cluster: string;
  messages: readonly LocalMessage[];
  command(who: Person, text: string): Promise<void>;
  press(who: Person, label: string, actionId: string, message: LocalMessage): Promise<void>;
  /** Resolves when no run is moving (each waits for a person or has ended). */
  settle(): Promise<void>;
  /** How many modals the bot has opened so far. */
  viewsOpened(): number;
  /** Submits the modal opened after the first `after`, with `reason`. */
  submitReject(who: Person, reason: string, after: number): Promise<void>;
  timeoutMs: number;
}

function usage(cluster: string): string {
  return [
    'Type what a person would do in #ops:',
    `  /proxy-migrate <command>      e.g. /proxy-migrate cutover ${cluster} blue-1 (help lists them all)`,
    '  press approve | rollback | repair   press that button on the newest message that has it',
    '  press reject <reason>         press Reject and give the reason the modal asks for',
    '  as alice | bob | carol        act as someone else (alice and bob approve; carol does not)',
    '  quit                          stop (so does the end of the input)',
  ].join('\n');
}

/** The latest version of each message (posts edited in place count once, as they look now). */
function current(messages: readonly LocalMessage[]): LocalMessage[] {
  const byTs = new Map<string, LocalMessage>();
  for (const m of messages) {
    if (m.kind === 'post' || m.kind === 'update') {
      const was = byTs.get(m.ts);
      byTs.set(m.ts, { ...m, ...(was?.threadTs === undefined ? {} : { threadTs: was.threadTs }) });
    }
  }
  return [...byTs.values()];
}

async function newestWith(deps: InteractiveDeps, action: string): Promise<LocalMessage> {
  const deadline = Date.now() + deps.timeoutMs;
  for (;;) {
    const found = current(deps.messages)
      .filter((m) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${action}"`))
      .at(-1);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('no message has that button');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function interactive(deps: InteractiveDeps): Promise<number> {
  let who: Person = 'alice';
  deps.write(usage(deps.cluster));
  deps.write();
  const lines = createInterface({ input: deps.input, terminal: false });
  for await (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (line === 'quit' || line === 'exit') break;
    try {
      const as = /^as (\w+)$/.exec(line);
      const press = /^press (\w+)\s*(.*)$/.exec(line);
      if (as !== null) {
        const name = as[1] ?? '';
        if (!(name in PEOPLE)) deps.write(`Nobody called ${name} here: alice, bob or carol.`);
        else who = name as Person;
      } else if (line.startsWith('/proxy-migrate')) {
        await deps.command(who, line.slice('/proxy-migrate'.length).trim());
      } else if (press !== null) {
        const button = BUTTONS[press[1] ?? ''];
        if (button === undefined) {
          deps.write(`No such button: approve, reject, rollback or repair.`);
          continue;
        }
        if (button.action === ACTION.reject && (press[2] ?? '') === '') {
          deps.write('Say why: press reject <reason>.');
          continue;
        }
        const message = await newestWith(deps, button.action);
        const opened = deps.viewsOpened();
        await deps.press(who, button.label, button.action, message);
        if (button.action === ACTION.reject) await deps.submitReject(who, press[2] ?? '', opened);
      } else {
        deps.write(usage(deps.cluster));
      }
      // The prompt comes back when the bot waits for someone again, as in the channel.
      await deps.settle();
    } catch (error) {
      deps.write(`(${(error as Error).message})`);
    }
    deps.write();
  }
  lines.close();
  return 0;
}

// Small commands: `uname` (the running kernel), `hostname`, `echo`, `true`/`false`, and the
// text filters a probe pipes into (`grep`, `head`, `tail`, `wc -l`, `tr`, `sort`).

import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';

export function runUname(ctx: CommandContext, args: readonly string[]): CommandResult {
  const facts = nodeState(ctx).facts;
  const flags = args.join('');
  if (flags.includes('a'))
    return ok(
      `Linux ${ctx.nodeName} ${facts.kernel} #1 SMP PREEMPT_DYNAMIC x86_64 x86_64 x86_64 GNU/Linux\n`,
    );
  const parts: string[] = [];
  if (flags.includes('s') || flags === '') parts.push('Linux');
  if (flags.includes('n')) parts.push(ctx.nodeName);
  if (flags.includes('r')) parts.push(facts.kernel);
  if (flags.includes('m')) parts.push('x86_64');
  return ok(`${parts.join(' ')}\n`);
}

const lines = (text: string): string[] => {
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
};
const join = (ls: readonly string[]): string => ls.map((l) => `${l}\n`).join('');

function grep(args: readonly string[], stdin: string): CommandResult {
  const flags = args.filter((a) => a.startsWith('-') && a.length > 1).join('');
  const pattern = args.find((a) => !a.startsWith('-') || a === '-') ?? '';
  const regex = new RegExp(
    flags.includes('F')
      ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      : pattern.replace(/\\\|/g, '|'),
    flags.includes('i') ? 'i' : '',
  );
  const matched = lines(stdin).filter((l) => regex.test(l) !== flags.includes('v'));
  const status = matched.length > 0 ? 0 : 1;
  if (flags.includes('q')) return { exitCode: status, stdout: '', stderr: '' };
  if (flags.includes('c')) return { exitCode: status, stdout: `${matched.length}\n`, stderr: '' };
  return { exitCode: status, stdout: join(matched), stderr: '' };
}

function count(args: readonly string[]): number {
  const i = args.indexOf('-n');
  if (i >= 0) return Number(args[i + 1] ?? 10);
  const short = args.find((a) => /^-n?\d+$/.test(a));
  return short === undefined ? 10 : Number(short.replace(/^-n?/, ''));
}

/** tr SET1 SET2 with single characters and \n, \t escapes (`tr ' ' '\n'`). */
function tr(args: readonly string[], stdin: string): CommandResult {
  const unescape = (s: string): string => s.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  const [from = '', to = ''] = args.filter((a) => !a.startsWith('-')).map(unescape);
  if (args.includes('-d')) return ok([...stdin].filter((c) => !from.includes(c)).join(''));
  return ok(
    [...stdin]
      .map((c) => (from.includes(c) ? (to[Math.min(from.indexOf(c), to.length - 1)] ?? c) : c))
      .join(''),
  );
}

export function runFilter(
  name: string,
  args: readonly string[],
  stdin: string,
): CommandResult | undefined {
  switch (name) {
    case 'grep':
    case 'egrep':
      return grep(name === 'egrep' ? ['-E', ...args] : args, stdin);
    case 'head': {
      const bytes = args.indexOf('-c');
      if (bytes >= 0) return ok(stdin.slice(0, Number(args[bytes + 1] ?? 0)));
      return ok(join(lines(stdin).slice(0, count(args))));
    }
    case 'tail':
      return ok(join(lines(stdin).slice(-count(args))));
    case 'wc':
      return ok(args.includes('-l') ? `${lines(stdin).length}\n` : `${stdin.length}\n`);
    case 'sort':
      return ok(join([...lines(stdin)].sort()));
    case 'tr':
      return tr(args, stdin);
    case 'echo':
      return ok(`${args.filter((a) => a !== '-n').join(' ')}${args.includes('-n') ? '' : '\n'}`);
    case 'true':
      return ok('');
    case 'false':
      return fail(1, '');
    default:
      return undefined;
  }
}

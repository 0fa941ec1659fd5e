// `conntrack` (conntrack-tools 1.4.7) on the node: -S prints one line per CPU with
// printf("cpu=%-4u\t") then "%s=%u " per counter (trailing space); -C prints the entry count.
// Which counters exist follows the kernel: `ignore` until 5.14, clash_resolve from 5.6 (not
// shown before), chaintoolong from 5.15.

import { fail, nodeState, ok, type CommandContext, type CommandResult } from './types.js';
import { kernelAtLeast } from '../versions.js';

const version = 'conntrack v1.4.7 (conntrack-tools)';

export function statCounters(kernel: string): string[] {
  const names = ['found', 'invalid'];
  if (!kernelAtLeast(kernel, 5, 14)) names.push('ignore');
  names.push('insert', 'insert_failed', 'drop', 'early_drop', 'error', 'search_restart');
  if (kernelAtLeast(kernel, 5, 6)) names.push('clash_resolve');
  if (kernelAtLeast(kernel, 5, 15)) names.push('chaintoolong');
  return names;
}

export function runConntrack(ctx: CommandContext, args: readonly string[]): CommandResult {
  const facts = nodeState(ctx).facts;
  const ct = facts.conntrack;
  const first = args[0] ?? '';
  if (first === '-S' || first === '--stats') {
    const names = statCounters(facts.kernel);
    const lines = ct.invalidPerCpu.map((invalid, cpu) => {
      const values = names.map((n) => `${n}=${n === 'invalid' ? invalid : 0} `).join('');
      return `cpu=${String(cpu).padEnd(4)}\t${values}\n`;
    });
    return ok(lines.join(''));
  }
  if (first === '-C' || first === '--count') return ok(`${ct.count}\n`);
  if (first === '-L' || first === '--dump')
    return ok('', `${version}: 0 flow entries have been shown.\n`);
  if (first === '-V' || first === '--version') return ok(`${version}\n`);
  return fail(
    2,
    `${version}: Unknown command ${first === '' ? '(none)' : first}\nTry \`conntrack -h' or 'conntrack --help' for more information.\n`,
  );
}

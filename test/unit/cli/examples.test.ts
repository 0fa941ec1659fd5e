// Every subcommand's help ends with Examples, and every example is a command line its parser
// accepts as it stands: no usage error, nothing on stderr (the example is parsed, not run).
import { describe, expect, it } from 'vitest';
import { subcommands } from '../../../src/cli/index.js';
import { main } from '../../../src/cli/program.js';
import type { CliIo } from '../../../src/cli/types.js';

function capture(): { io: CliIo; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: { write: (s: string) => ((out.stdout += s), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((out.stderr += s), true) } as unknown as NodeJS.WritableStream,
    env: {},
  };
  return { io, out };
}

/** The words of an example as a POSIX shell passes them (examples use no quoting). */
function words(line: string): string[] {
  expect(line, 'examples are plain words').not.toMatch(/["'`$\\|;&<>]/);
  return line.trim().split(/\s+/);
}

const examples = subcommands.flatMap((c) => c.examples.map((e) => [c.name, e] as const));

describe('--help examples', () => {
  it.each(subcommands.map((c) => [c.name, c] as const))(
    '%s has examples, shown under Examples in its --help',
    async (name, command) => {
      expect(command.examples.length).toBeGreaterThan(0);
      const { io, out } = capture();
      expect(await main([name, '--help'], io)).toBe(0);
      const shown = out.stdout.slice(out.stdout.indexOf('\nExamples:\n'));
      expect(shown).not.toBe('');
      for (const example of command.examples) expect(shown).toContain(`\n  ${example}`);
    },
  );

  it.each(examples)('%s: `%s` parses', (name, example) => {
    const [program, command, ...argv] = words(example);
    expect(program).toBe('proxy-migrate');
    expect(command).toBe(name);
    const subcommand = subcommands.find((c) => c.name === command);
    const { io, out } = capture();
    expect(subcommand?.check(argv, io), out.stderr).toBeUndefined();
    expect(out.stderr).toBe('');
  });

  it('check refuses what run would refuse, with the usage exit code', () => {
    const cutover = subcommands.find((c) => c.name === 'cutover');
    const { io, out } = capture();
    expect(cutover?.check(['cluster-a'], io)).toBe(64);
    expect(out.stderr).toContain('Which cluster and node?');
  });
});

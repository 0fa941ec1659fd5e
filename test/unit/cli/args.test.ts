import { describe, expect, it } from 'vitest';
import { clusterFlags, commandLine } from '../../../src/cli/args.js';
import type { CliIo } from '../../../src/cli/types.js';

function io() {
  const out = { stdout: '', stderr: '' };
  const streams: CliIo = {
    stdout: { write: (s: string) => ((out.stdout += s), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (s: string) => ((out.stderr += s), true) } as unknown as NodeJS.WritableStream,
    env: {},
  };
  return { streams, out };
}

const options = { format: { type: 'string' }, kubeconfig: { type: 'string' } } as const;
const shape = {
  required: 1,
  optional: 1,
  missing: 'Which cluster?',
  formats: ['text', 'json'] as const,
} as const;
const help = 'Usage: x <cluster> [<node>]';

describe('commandLine', () => {
  it('gives the positionals and the format, the first one by default', () => {
    const { streams } = io();
    const got = commandLine(['a', 'b'], options, help, streams, shape);
    expect(got).toMatchObject({ ok: true, line: { args: ['a', 'b'], format: 'text' } });
    const json = commandLine(['a', '--format', 'json'], options, help, streams, shape);
    expect(json).toMatchObject({ ok: true, line: { args: ['a'], format: 'json' } });
  });

  it.each([
    [[], 'Which cluster?'],
    [['a', 'b', 'c'], 'Unexpected argument: c'],
    [['a', '--format', 'yaml'], '--format must be one of text, json.'],
    [['a', '--nope'], "Unknown option '--nope'"],
  ])('refuses %j with exit 64 and the help: %s', (argv, message) => {
    const { streams, out } = io();
    const got = commandLine(argv, options, help, streams, shape);
    expect(got).toEqual({ ok: false, code: 64 });
    expect(out.stderr).toContain(message);
    expect(out.stderr).toContain(help);
    expect(out.stdout).toBe('');
  });

  it('prints the help on stdout for --help, exit 0', () => {
    const { streams, out } = io();
    expect(commandLine(['--help'], options, help, streams, shape)).toEqual({ ok: false, code: 0 });
    expect(out.stdout).toBe(`${help}\n`);
  });
});

describe('clusterFlags', () => {
  it('leaves absent flags absent, not undefined', () => {
    expect(clusterFlags({ kubeconfig: undefined, context: 'c' })).toStrictEqual({ context: 'c' });
  });
});

describe('commandLine: kubectl habits', () => {
  const withCluster = {
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
  } as const;
  const two = {
    required: 2,
    missing: 'Which cluster and node?',
    formats: ['text', 'json'],
  } as const;

  it.each([
    [['a', 'b', '-o', 'json']],
    [['a', 'b', '--output', 'json']],
    [['a', 'b', '--output=json']],
    [['a', 'b', '-ojson']],
    [['a', 'b', '--format', 'json', '-o', 'json']],
  ])('-o/--output is --format: %j', (argv) => {
    const { streams } = io();
    expect(commandLine(argv, withCluster, help, streams, two)).toMatchObject({
      ok: true,
      line: { format: 'json' },
    });
  });

  it('refuses -o and --format that disagree, and a bad -o', () => {
    const { streams, out } = io();
    const argv = ['a', 'b', '--format', 'text', '-o', 'json'];
    expect(commandLine(argv, withCluster, help, streams, two)).toEqual({ ok: false, code: 64 });
    expect(out.stderr).toContain('--format and -o/--output disagree');
    expect(commandLine(['a', 'b', '-o', 'yaml'], withCluster, help, streams, two)).toEqual({
      ok: false,
      code: 64,
    });
    expect(out.stderr).toContain('--format must be one of text, json.');
  });

  it('leaves <cluster> out when --context or --kubeconfig names it', () => {
    const { streams } = io();
    for (const flag of ['--context', '--kubeconfig']) {
      expect(commandLine(['blue-1', flag, 'x'], withCluster, help, streams, two)).toMatchObject({
        ok: true,
        line: { args: [undefined, 'blue-1'] },
      });
    }
    // Both given: the cluster is still the first argument.
    expect(
      commandLine(['a', 'blue-1', '--context', 'x'], withCluster, help, streams, two),
    ).toMatchObject({ ok: true, line: { args: ['a', 'blue-1'] } });
    expect(commandLine(['--context', 'x'], withCluster, help, streams, shape)).toMatchObject({
      ok: true,
      line: { args: [undefined] },
    });
  });

  it('still asks for the cluster without --context/--kubeconfig, and for the node with them', () => {
    const { streams, out } = io();
    expect(commandLine(['blue-1'], withCluster, help, streams, two)).toEqual({
      ok: false,
      code: 64,
    });
    expect(commandLine(['--context', 'x'], withCluster, help, streams, two)).toEqual({
      ok: false,
      code: 64,
    });
    expect(out.stderr).toContain('Which cluster and node?');
  });
});

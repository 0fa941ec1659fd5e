// Completion scripts come from the subcommand list and each one's option definitions: the bash
// script is loaded into a real bash and asked for completions; zsh and fish (not installed here)
// are checked for every command and flag.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { completionScript, shells, type Completable } from '../../../src/cli/completion.js';
import { subcommands } from '../../../src/cli/index.js';
import { main } from '../../../src/cli/program.js';
import type { CliIo } from '../../../src/cli/types.js';

const dir = mkdtempSync(join(tmpdir(), 'pm-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function complete(script: string, line: string[]): string[] {
  const file = join(dir, 'completion.bash');
  writeFileSync(file, script);
  const words = line.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source ${file}; COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}; _proxy_migrate; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter((w) => w !== '');
}

const bash = completionScript('bash', subcommands);

function flags(c: Completable): string[] {
  return Object.entries(c.options).flatMap(([long, o]) => [
    `--${long}`,
    ...(o.short === undefined ? [] : [`-${o.short}`]),
  ]);
}

describe('proxy-migrate completion', () => {
  it('bash: offers every subcommand first', () => {
    const offered = complete(bash, ['proxy-migrate', '']);
    for (const c of subcommands) expect(offered).toContain(c.name);
    expect(complete(bash, ['proxy-migrate', 'cut'])).toEqual(['cutover']);
  });

  it.each(subcommands.map((c) => [c.name, c] as const))(
    'bash: offers every flag %s defines',
    (name, command) => {
      const offered = complete(bash, ['proxy-migrate', name, '-']);
      for (const flag of [...flags(command), '--help']) expect(offered).toContain(flag);
    },
  );

  it('bash: completes a prefix, the alias -o, and the shells of completion itself', () => {
    expect(complete(bash, ['proxy-migrate', 'cutover', 'blue-1', '--dr'])).toEqual(['--dry-run']);
    expect(complete(bash, ['proxy-migrate', 'plan', '-'])).toContain('-o');
    expect(complete(bash, ['proxy-migrate', 'completion', ''])).toEqual(
      expect.arrayContaining([...shells]),
    );
    // After a flag that takes a value nothing is forced on it (bash falls back to file names).
    expect(complete(bash, ['proxy-migrate', 'plan', '--kubeconfig', ''])).toEqual([]);
  });

  it('is generated, not maintained: a new command and flag appear in every shell', () => {
    const extra: Completable = {
      name: 'frobnicate',
      summary: "a command that isn't real: it has a colon",
      options: { 'new-flag': { type: 'string', short: 'n' } },
    };
    const commands = [...subcommands, extra];
    expect(complete(completionScript('bash', commands), ['proxy-migrate', 'frob'])).toEqual([
      'frobnicate',
    ]);
    expect(
      complete(completionScript('bash', commands), ['proxy-migrate', 'frobnicate', '--new']),
    ).toEqual(['--new-flag']);
    const zsh = completionScript('zsh', commands);
    expect(zsh).toContain(`'frobnicate:a command that isn'\\''t real\\: it has a colon'`);
    expect(zsh).toContain(`frobnicate) _arguments '--new-flag:new-flag: ' '-n:new-flag: '`);
    const fish = completionScript('fish', commands);
    expect(fish).toContain(`-a frobnicate -d 'a command that isn\\'t real: it has a colon'`);
    expect(fish).toContain(`'__fish_seen_subcommand_from frobnicate' -l new-flag -s n -r`);
  });

  it.each(['zsh', 'fish'] as const)('%s: names every subcommand and every flag', (shell) => {
    const script = completionScript(shell, subcommands);
    for (const c of subcommands) {
      expect(script).toContain(shell === 'zsh' ? `    ${c.name}) _arguments` : `-a ${c.name} -d`);
      for (const [long] of Object.entries(c.options)) expect(script).toContain(long);
    }
  });

  it('bash -n accepts the script; `completion zsh` starts with #compdef; no shell is a usage error', async () => {
    const file = join(dir, 'syntax.bash');
    writeFileSync(file, bash);
    expect(() => execFileSync('bash', ['-n', file])).not.toThrow();
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: { write: (s: string) => ((stdout += s), true) } as unknown as NodeJS.WritableStream,
      stderr: { write: (s: string) => ((stderr += s), true) } as unknown as NodeJS.WritableStream,
      env: {},
    };
    expect(await main(['completion', 'zsh'], io)).toBe(0);
    expect(stdout.startsWith('#compdef proxy-migrate\n')).toBe(true);
    expect(await main(['completion', 'powershell'], io)).toBe(64);
    expect(stderr).toContain('Which shell? One of bash, zsh, fish.');
  });
});

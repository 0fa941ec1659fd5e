/**
 * `proxy-migrate completion bash|zsh|fish`: a shell completion script generated from the
 * subcommand list and each subcommand's option definitions, so a new flag or command is offered
 * without anyone editing a script.
 */
import { checkOf, usageError, withExamples, parseOrExit } from './args.js';
import { EXIT, type CliIo, type Options, type Subcommand } from './types.js';

export const shells = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof shells)[number];

/** What a script needs to know of one subcommand. */
export type Completable = Pick<Subcommand, 'name' | 'summary' | 'options' | 'words'>;

interface Flag {
  long: string;
  short?: string;
  takesValue: boolean;
}

function flagsOf(options: Options): Flag[] {
  return [
    ...Object.entries(options).map(([long, o]) => ({
      long,
      takesValue: o.type === 'string',
      ...(o.short === undefined ? {} : { short: o.short }),
    })),
    { long: 'help', short: 'h', takesValue: false },
  ];
}

const GLOBAL = ['--help', '-h', '--version', '-v'];

function bash(commands: readonly Completable[]): string {
  const cases = commands.map((c) => {
    const flags = flagsOf(c.options).flatMap((f) => [
      `--${f.long}`,
      ...(f.short === undefined ? [] : [`-${f.short}`]),
    ]);
    const valued = flagsOf(c.options)
      .filter((f) => f.takesValue)
      .flatMap((f) => [`--${f.long}`, ...(f.short === undefined ? [] : [`-${f.short}`])]);
    const words = c.words ?? [];
    return [
      `    ${c.name})`,
      ...(valued.length === 0
        ? []
        : [`      case "$prev" in ${valued.join('|')}) COMPREPLY=(); return ;; esac`]),
      `      COMPREPLY=($(compgen -W "${[...flags, ...words].join(' ')}" -- "$cur"))`,
      '      ;;',
    ].join('\n');
  });
  return `# proxy-migrate bash completion: source <(proxy-migrate completion bash)
_proxy_migrate() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${[...commands.map((c) => c.name), ...GLOBAL].join(' ')}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
}
complete -o default -F _proxy_migrate proxy-migrate
`;
}

/** Inside zsh single quotes, and with `:` (its field separator) and `[]` escaped. */
function zshQuote(text: string): string {
  return text.replace(/'/g, `'\\''`).replace(/[:[\]]/g, (c) => `\\${c}`);
}

function zsh(commands: readonly Completable[]): string {
  const described = commands.map((c) => `    '${c.name}:${zshQuote(c.summary)}'`);
  const cases = commands.map((c) => {
    const specs = flagsOf(c.options).flatMap((f) => {
      const value = f.takesValue ? `:${f.long}: ` : '';
      const forms = [`--${f.long}`, ...(f.short === undefined ? [] : [`-${f.short}`])];
      return forms.map((form) => `'${form}${value}'`);
    });
    const words = c.words === undefined ? [] : [`'1:${c.name}:(${c.words.join(' ')})'`];
    return `    ${c.name}) _arguments ${[...specs, ...words, "'*:argument: '"].join(' ')} ;;`;
  });
  return `#compdef proxy-migrate
# proxy-migrate zsh completion: source <(proxy-migrate completion zsh), or save as _proxy-migrate in $fpath
_proxy_migrate() {
  local -a commands
  commands=(
${described.join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local cmd=$words[2]
  shift words
  (( CURRENT-- ))
  case $cmd in
${cases.join('\n')}
  esac
}
compdef _proxy_migrate proxy-migrate
`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function fish(commands: readonly Completable[]): string {
  const names = commands.map((c) => c.name).join(' ');
  const lines = [
    '# proxy-migrate fish completion: proxy-migrate completion fish | source',
    'complete -c proxy-migrate -f',
    `complete -c proxy-migrate -n 'not __fish_seen_subcommand_from ${names}' -l version -s v -d 'print the version'`,
    ...commands.map(
      (c) =>
        `complete -c proxy-migrate -n 'not __fish_seen_subcommand_from ${names}' -a ${c.name} -d ${fishQuote(c.summary)}`,
    ),
    ...commands.flatMap((c) => [
      ...flagsOf(c.options).map(
        (f) =>
          `complete -c proxy-migrate -n '__fish_seen_subcommand_from ${c.name}' -l ${f.long}` +
          `${f.short === undefined ? '' : ` -s ${f.short}`}${f.takesValue ? ' -r' : ''}`,
      ),
      ...(c.words === undefined
        ? []
        : [
            `complete -c proxy-migrate -n '__fish_seen_subcommand_from ${c.name}' -a ${fishQuote(c.words.join(' '))}`,
          ]),
    ]),
  ];
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, commands: readonly Completable[]): string {
  switch (shell) {
    case 'bash':
      return bash(commands);
    case 'zsh':
      return zsh(commands);
    case 'fish':
      return fish(commands);
  }
}

const examples = [
  'proxy-migrate completion bash',
  'proxy-migrate completion zsh',
  'proxy-migrate completion fish',
];

const help = withExamples(
  `Usage: proxy-migrate completion bash|zsh|fish

Prints a shell completion script for every subcommand and its flags. Load it with:
  bash   source <(proxy-migrate completion bash)        (in ~/.bashrc)
  zsh    source <(proxy-migrate completion zsh)         (in ~/.zshrc, after compinit)
  fish   proxy-migrate completion fish > ~/.config/fish/completions/proxy-migrate.fish`,
  examples,
);

const options = {} as const;

function parse(
  argv: string[],
  io: CliIo,
): { ok: true; shell: Shell } | { ok: false; code: number } {
  const parsed = parseOrExit(argv, options, help, io);
  if (!parsed.ok) return parsed;
  const { positionals } = parsed.parsed;
  const shell = shells.find((s) => s === positionals[0]);
  if (shell === undefined || positionals.length !== 1)
    return { ok: false, code: usageError(io, help, `Which shell? One of ${shells.join(', ')}.`) };
  return { ok: true, shell };
}

/** The subcommand; `commands` is read when it runs (the list includes this command). */
export function completionCommand(commands: () => readonly Completable[]): Subcommand {
  return {
    name: 'completion',
    summary: 'print a shell completion script (bash, zsh or fish)',
    help,
    options,
    words: shells,
    examples,
    check: checkOf(parse),
    run: (argv, io) => {
      const parsed = parse(argv, io);
      if (!parsed.ok) return Promise.resolve(parsed.code);
      io.stdout.write(completionScript(parsed.shell, commands()));
      return Promise.resolve(EXIT.ok);
    },
  };
}

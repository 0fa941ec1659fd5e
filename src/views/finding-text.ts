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

/** Slack mrkdwn: icon, check id, scope, title; then why, what to do, and the exact commands. */
export function findingMrkdwn(f: Finding): string {
  const lines = [
    `${severityEmoji[f.severity]} *${escape(f.check)}*${escape(where(f))} · ${escape(f.title)}`,
  ];
  if (f.detail !== '') lines.push(escape(f.detail));
  if (f.remedy !== undefined) lines.push(`→ ${escape(f.remedy)}`);
  if (f.commands.length > 0) lines.push(`\`\`\`${escape(f.commands.join('\n'))}\`\`\``);
  return lines.join('\n');
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

/** Markdown for files and terminals: a heading per finding, fenced commands. */
export function findingMarkdown(f: Finding): string {
  const lines = [`### ${severityWord[f.severity]} ${f.check}${where(f)}: ${f.title}`, ''];
  if (f.subjects.length > 0) lines.push(`Subjects: ${f.subjects.join(', ')}`, '');
  if (f.detail !== '') lines.push(f.detail, '');
  if (f.remedy !== undefined) lines.push(`**Remedy:** ${f.remedy}`, '');
  if (f.commands.length > 0) lines.push('```', ...f.commands, '```', '');
  return lines.join('\n');
}

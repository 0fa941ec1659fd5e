/** `/proxy-migrate help`: every verb with its usage, from the command registry. */
import type { ChatMessage } from '../ports/chat.js';
import { context, escape, section } from './blocks.js';

export interface VerbHelp {
  usage: string;
  summary: string;
}

export function helpMessage(verbs: readonly VerbHelp[]): ChatMessage {
  const lines = verbs.map((verb) => `• \`${escape(verb.usage)}\`: ${escape(verb.summary)}`);
  return {
    text: `proxy-migrate: ${verbs.map((v) => v.usage).join(' · ')}`,
    blocks: [
      section(
        '*proxy-migrate* moves kube-proxy from IPVS to nftables one node at a time, with checks, approvals, evidence and rollback.',
      ),
      section(lines.join('\n')),
      context(
        'Reports and run cards are posted in this channel, each run’s details in its thread. Only you see this message.',
      ),
    ],
  };
}

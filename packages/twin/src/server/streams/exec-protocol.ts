// The exec channel protocol over WebSocket (k8s.io/apimachinery wsstream and remotecommand):
// subprotocol choice, one-byte channel prefixes, and the status message each version expects.

import type { JsonObject } from '../../apimachinery/types.js';

/** Best first. kubectl offers only v5; client-node offers all five and takes what is echoed. */
export const execProtocols = [
  'v5.channel.k8s.io',
  'v4.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
] as const;
export type ExecProtocol = (typeof execProtocols)[number];

export const channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

/** kubelet copies streams through 32 KiB buffers, so large output arrives in frames this size. */
export const maxFramePayload = 32 * 1024;

/** Picks our best protocol among those offered; the client's order does not matter. */
export function negotiateProtocol(offered: Iterable<string>): ExecProtocol | undefined {
  const set = new Set([...offered].map((p) => p.trim()));
  return execProtocols.find((p) => set.has(p));
}

/** Only v4 and v5 carry a JSON Status; v5 adds the client's stdin-close message (255, 0). */
export function hasJsonStatus(protocol: ExecProtocol): boolean {
  return protocol === 'v5.channel.k8s.io' || protocol === 'v4.channel.k8s.io';
}

export function frames(ch: number, data: Buffer | string, max = maxFramePayload): Buffer[] {
  const payload = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const out: Buffer[] = [];
  for (let at = 0; at < payload.length; at += max) {
    out.push(Buffer.concat([Buffer.of(ch), payload.subarray(at, at + max)]));
  }
  return out;
}

/** How a command ended: an exit code, or a failure to run it at all (timeout, provider error). */
export type ExecOutcome = { kind: 'exit'; exitCode: number } | { kind: 'error'; message: string };

/** The Status remotecommand sends on the error channel: metav1.Status marshalled without TypeMeta. */
export function execStatus(outcome: ExecOutcome, command: readonly string[]): JsonObject {
  if (outcome.kind === 'exit' && outcome.exitCode === 0) return { metadata: {}, status: 'Success' };
  if (outcome.kind === 'exit') {
    const code = String(outcome.exitCode);
    return {
      metadata: {},
      status: 'Failure',
      message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: code }] },
    };
  }
  return {
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${outcome.message}`,
    reason: 'InternalError',
    details: { causes: [{ message: outcome.message }] },
    code: 500,
  };
}

/**
 * The single channel-3 frame that ends a session. v4/v5 send the Status JSON; the older protocols
 * send nothing on success and the Status message as plain text on failure (v1WriteStatusFunc).
 */
export function statusFrame(
  protocol: ExecProtocol,
  outcome: ExecOutcome,
  command: readonly string[],
): Buffer | undefined {
  const status = execStatus(outcome, command);
  const message = status['message'];
  if (hasJsonStatus(protocol))
    return Buffer.concat([Buffer.of(channel.error), Buffer.from(JSON.stringify(status))]);
  if (typeof message !== 'string') return undefined;
  return Buffer.concat([Buffer.of(channel.error), Buffer.from(message)]);
}

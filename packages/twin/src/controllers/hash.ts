// Names and hashes in the shapes Kubernetes prints them, but deterministic: template hashes like
// controller.ComputeHash (fnv32a, then rand.SafeEncodeString), 5-character pod suffixes, and the
// sha256-looking container and image IDs a container runtime reports.

import { createHash } from 'node:crypto';

/** apimachinery's rand alphabet: no vowels, no ambiguous characters. */
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** rand.SafeEncodeString: each byte mapped onto the alphabet. */
export function safeEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) out += alphabet[text.charCodeAt(i) % alphabet.length];
  return out;
}

/** JSON with sorted keys, so equal objects hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * controller.ComputeHash: the decimal fnv32a of the template, safe-encoded. Like the real one it
 * only uses the ten characters digits map to ("5f6b9c8d7"), up to ten of them.
 */
export function templateHash(template: unknown, collisionCount = 0): string {
  const salt = collisionCount > 0 ? `#${collisionCount}` : '';
  return safeEncode(String(fnv32a(canonicalJson(template) + salt)));
}

/** A suffix like utilrand.String(n) would draw, derived from a seed instead of randomness. */
export function nameSuffix(seed: string, length = 5): string {
  let state = fnv32a(seed) || 1;
  let out = '';
  for (let i = 0; i < length; i += 1) {
    // xorshift32: cheap, deterministic, and spreads neighbouring seeds apart.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    out += alphabet[state % alphabet.length];
  }
  return out;
}

export function sha256Hex(seed: string): string {
  return createHash('sha256').update(seed).digest('hex');
}

// kube-proxy's nftables chain names: `service-ULMVA6XW-ns1/svc1/tcp/p80` and
// `endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80`, where the prefix is the first 8 base32
// characters of the SHA-256 of the rest (hashAndTruncate in pkg/proxy/nftables/proxier.go).

import { createHash } from 'node:crypto';
import type { CatalogEndpoint, CatalogServicePort } from '../dataplane/catalog.js';

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
/** knftables.NameLengthMax (256) minus the longest chain prefix (16). */
const chainNameBaseLengthMax = 240;

function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31] ?? '';
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31] ?? '';
  return out;
}

export function hashAndTruncate(name: string): string {
  const hash = base32(createHash('sha256').update(name).digest()).slice(0, 8);
  const full = `${hash}-${name}`;
  return full.length > chainNameBaseLengthMax
    ? `${full.slice(0, chainNameBaseLengthMax - 3)}...`
    : full;
}

function portBase(sp: CatalogServicePort): string {
  return `${sp.namespace}/${sp.name}/${sp.protocol.toLowerCase()}/${sp.portName}`;
}

export function serviceChainBase(sp: CatalogServicePort): string {
  return hashAndTruncate(portBase(sp));
}

export function endpointChainName(sp: CatalogServicePort, ep: CatalogEndpoint): string {
  // Colons are not allowed in chain names, so IPv6 endpoints use dots.
  return `endpoint-${hashAndTruncate(`${portBase(sp)}__${ep.ip.replaceAll(':', '.')}/${ep.port}`)}`;
}

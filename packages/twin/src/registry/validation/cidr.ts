// validation.IsValidCIDR (apimachinery/pkg/util/validation/ip.go, v0.33): a parseable CIDR, in
// strict form (no leading zeros, no bits past the prefix), written canonically. IPv6 is checked
// for syntax and prefix length only.

import { isIPv6 } from 'node:net';
import { fieldError, type FieldError } from '../../apimachinery/field-errors.js';

const invalidMessage = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

export type IpFamily = 4 | 6;

/** The family of a syntactically valid CIDR, else undefined. */
export function cidrFamily(value: string): IpFamily | undefined {
  const [ip = '', prefix, extra] = value.split('/');
  if (prefix === undefined || extra !== undefined || !/^\d{1,3}$/.test(prefix)) return undefined;
  const bits = Number(prefix);
  if (
    /^\d{1,3}(\.\d{1,3}){3}$/.test(ip) &&
    ip.split('.').every((o) => Number(o) <= 255) &&
    bits <= 32
  )
    return 4;
  if (isIPv6(ip) && bits <= 128) return 6;
  return undefined;
}

export function isValidCIDR(path: string, value: string): FieldError[] {
  const family = cidrFamily(value);
  if (family === undefined) return [fieldError.invalid(path, value, invalidMessage)];
  if (family === 6) return [];
  const [ip = '', prefix = '0'] = value.split('/');
  const octets = ip.split('.');
  if (
    octets.some((o) => o.length > 1 && o.startsWith('0')) ||
    (prefix.length > 1 && prefix.startsWith('0'))
  )
    return [fieldError.invalid(path, value, 'must not have leading 0s in IP or prefix length')];
  const bits = Number(prefix);
  const addr = octets.reduce((acc, o) => acc * 256 + Number(o), 0);
  const size = 2 ** (32 - bits);
  const masked = addr - (addr % size);
  if (masked !== addr)
    return [fieldError.invalid(path, value, 'must not have bits set beyond the prefix length')];
  return [];
}

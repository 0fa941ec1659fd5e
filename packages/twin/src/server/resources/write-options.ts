// The write options every create, update and patch decodes from its query (Create/Update/
// PatchOptions: fieldManager, fieldValidation, force), validated as apimachinery's
// meta/v1/validation does, the manager name the apiserver falls back to (managerOrUserAgent in
// handlers/create.go), and the `Warning: 299` headers (warning.AddWarning, net.NewWarningHeader).

import type { IncomingMessage } from 'node:http';
import type { ApiError } from '../../apimachinery/errors.js';
import type { FieldError } from '../../apimachinery/field-errors.js';
import { fieldError, invalidObject } from '../../apimachinery/field-errors.js';

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';
/** The fieldValidation directive; the server default is Warn (handlers/rest.go fieldValidation). */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

const maxManagerLength = 128;
const supported = ['', 'Ignore', 'Strict', 'Warn'];

export interface WriteQuery {
  /** The fieldManager parameter as sent ('' when absent). */
  fieldManager: string;
  validation: FieldValidation;
  force: boolean | undefined;
}

function printable(ch: string): boolean {
  // unicode.IsPrint: no control, format or separator characters except the ASCII space.
  return ch === ' ' || !/[\p{C}\p{Z}]/u.test(ch);
}

function managerErrors(manager: string, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (Buffer.byteLength(manager) > maxManagerLength)
    errors.push(fieldError.tooLong(field, maxManagerLength));
  let i = 0;
  for (const ch of manager) {
    if (!printable(ch)) {
      const code = ch.codePointAt(0) ?? 0;
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      errors.push(
        fieldError.invalid(field, manager, `invalid character U+${hex} (at position ${i})`),
      );
    }
    i += Buffer.byteLength(ch);
  }
  return errors;
}

/** Decodes and validates the options; throws the 422 `PatchOptions.meta.k8s.io "" is invalid`. */
export function writeQuery(query: URLSearchParams, kind: OptionsKind, apply = false): WriteQuery {
  const fieldManager = query.get('fieldManager') ?? '';
  const directive = query.get('fieldValidation') ?? '';
  const forceText = query.get('force');
  const errors: FieldError[] = [];
  if (kind === 'PatchOptions') {
    // kubectl defaults the manager to "kubectl"; controllers must set it (validation.go).
    if (apply && fieldManager === '')
      errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
    if (!apply && forceText !== null)
      errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
  }
  errors.push(...managerErrors(fieldManager, 'fieldManager'));
  if (!supported.includes(directive))
    errors.push(fieldError.notSupported('fieldValidation', directive, supported));
  if (errors.length > 0) throw optionsInvalid(kind, errors);
  return {
    fieldManager,
    validation: directive === '' ? 'Warn' : (directive as FieldValidation),
    force: forceText === null ? undefined : forceText === 'true' || forceText === '1',
  };
}

function optionsInvalid(kind: OptionsKind, errors: FieldError[]): ApiError {
  return invalidObject(kind, 'meta.k8s.io', '', errors);
}

/** managerOrUserAgent: the parameter, else the User-Agent up to its first `/`, printable only. */
export function managerName(fieldManager: string, req: IncomingMessage): string {
  if (fieldManager !== '') return fieldManager;
  const prefix = (req.headers['user-agent'] ?? '').split('/')[0] ?? '';
  let out = '';
  for (const ch of prefix) {
    if (!printable(ch)) continue;
    if (Buffer.byteLength(out + ch) > maxManagerLength) break;
    out += ch;
  }
  return out;
}

/** Warnings a request collects, sent as one `Warning: 299 - "text"` header each, deduplicated. */
export class Warnings {
  private readonly texts: string[] = [];

  add(text: string): void {
    if (!this.texts.includes(text)) this.texts.push(text);
  }

  addAll(texts: readonly string[]): void {
    for (const t of texts) this.add(t);
  }

  headers(): Record<string, string[]> {
    if (this.texts.length === 0) return {};
    return { Warning: this.texts.map((t) => `299 - "${t.replace(/["\\]/g, (c) => `\\${c}`)}"`) };
  }
}

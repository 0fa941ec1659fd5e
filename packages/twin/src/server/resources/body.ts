// Request bodies as the apiserver's serializers decode them (runtime/serializer/json): JSON or
// YAML, and with fieldValidation Strict or Warn the strict decoder's unknown and duplicate fields
// (for YAML, duplicate keys first). Strict turns them into the 400 create.go and update.go answer,
// Warn into warnings. Unknown fields are dropped in every mode, as Go's types drop them. Protobuf
// bodies (built-in kinds) have no strict form: codec_factory.go falls back to the plain decoder.

import { isMap, isScalar, LineCounter, parse as parseYaml, parseDocument, visit } from 'yaml';
import { ApiError, badRequest, unsupportedMediaType } from '../../apimachinery/errors.js';
import {
  decodeProtobuf,
  ProtobufError,
  protobufMediaType,
} from '../../apimachinery/protobuf/envelope.js';
import { scanJson } from '../../apimachinery/json-scan.js';
import type { JsonObject, JsonValue } from '../../apimachinery/types.js';
import { asRecord, isJsonObject } from '../../apimachinery/types.js';
import { rootNode } from '../../schema/index.js';
import { pruneUnknown, strictDecode } from '../../schema/strict-decoding.js';
import { mediaType, parseJsonBody } from '../http-util.js';
import type { ResourceTarget } from '../routes.js';
import { groupVersion } from '../../registry/resources.js';
import type { FieldValidation, Warnings } from './write-options.js';

export function decodeBody(text: string, contentType: string): JsonValue {
  const type = mediaType(contentType);
  if (type === 'application/json' || type === '') return parseJsonBody(text);
  if (type === 'application/yaml' || type === 'application/apply-patch+yaml') {
    try {
      return parseYaml(text, { uniqueKeys: false }) as JsonValue;
    } catch (error) {
      throw badRequest(`error decoding YAML: ${(error as Error).message}`);
    }
  }
  throw unsupportedMediaType(type, ['application/json', 'application/yaml']);
}

/** yaml.v2 strict unmarshal: `line N: key "x" already set in map`, under its two prefixes. */
export function yamlDuplicateKeys(text: string): string | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: false, lineCounter: counter });
  const found: { at: number; text: string }[] = [];
  visit(doc, {
    Map(_, map) {
      if (!isMap(map)) return;
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = pair.key.value;
        const id = JSON.stringify(key);
        if (seen.has(id)) {
          const at = pair.key.range?.[0] ?? 0;
          const shown = typeof key === 'string' ? id : String(key);
          found.push({
            at,
            text: `line ${counter.linePos(at).line}: key ${shown} already set in map`,
          });
        }
        seen.add(id);
      }
    },
  });
  // yaml.v2 checks each key as it decodes the mapping: document order.
  const lines = found.sort((a, b) => a.at - b.at).map((f) => f.text);
  if (lines.length === 0) return undefined;
  return `error converting YAML to JSON: yaml: unmarshal errors:\n  ${lines.join('\n  ')}`;
}

/** parseYAMLWarnings: a YAML strict error becomes one warning per line. */
export function yamlWarnings(error: string): string[] {
  const prefix = 'error converting YAML to JSON: yaml: unmarshal errors:\n';
  if (!error.startsWith(prefix)) return [error];
  return error
    .slice(prefix.length)
    .split('\n')
    .map((l) => l.trim());
}

/** strict decoding errors of a body, and the value Go keeps. */
function strictBody(
  text: string,
  contentType: string,
  t: ResourceTarget,
  validation: FieldValidation,
): { value: JsonValue; errors: string[] } {
  const type = mediaType(contentType);
  const value = decodeBody(text, contentType);
  const root = rootNode(groupVersion(t.def), t.def.kind);
  if (validation === 'Ignore') return { value: pruneUnknown(value, root).value, errors: [] };
  if (type === 'application/json' || type === '') {
    parseJsonBody(text);
    return strictDecode(scanJson(text), root);
  }
  const duplicates = yamlDuplicateKeys(text);
  const decoded = pruneUnknown(value, root);
  return { value: decoded.value, errors: [...(duplicates ? [duplicates] : []), ...decoded.errors] };
}

/**
 * The body of a create or update: Strict fails with `ConfigMap in version "v1" cannot be
 * handled as a ConfigMap: strict decoding error: unknown field "foo"` (transformDecodeError).
 */
export function decodeObjectBody(
  text: string,
  contentType: string,
  t: ResourceTarget,
  validation: FieldValidation,
  warnings: Warnings,
): JsonValue {
  const { value, errors } = strictBody(text, contentType, t, validation);
  if (errors.length === 0) return value;
  if (validation === 'Warn') {
    for (const e of errors) warnings.addAll(yamlWarnings(e));
    return value;
  }
  const body = isJsonObject(value) ? value : {};
  const kind = typeof body['kind'] === 'string' && body['kind'] !== '' ? body['kind'] : t.def.kind;
  const apiVersion = typeof body['apiVersion'] === 'string' ? body['apiVersion'] : t.def.version;
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  throw badRequest(
    `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${t.def.kind}: strict decoding error: ${errors.join(', ')}`,
  );
}

/**
 * A create or update body in any media type the apiserver reads: JSON, YAML, or (for built-in
 * kinds, which kubectl's typed clients send that way) protobuf. Custom resources have no protobuf
 * form, so they answer 415 as the real apiserver does.
 */
export function decodeRequestBody(
  raw: Buffer,
  contentType: string,
  t: ResourceTarget,
  validation: FieldValidation,
  warnings: Warnings,
): JsonValue {
  const type = mediaType(contentType);
  const accepted = ['application/json', 'application/yaml'];
  if (type !== protobufMediaType) {
    if (![...accepted, ''].includes(type))
      throw unsupportedMediaType(
        type,
        t.def.strategicMerge ? [...accepted, protobufMediaType] : accepted,
      );
    return decodeObjectBody(raw.toString('utf8'), contentType, t, validation, warnings);
  }
  if (!t.def.strategicMerge) throw unsupportedMediaType(type, accepted);
  return pruneUnknown(protobufBody(raw), rootNode(groupVersion(t.def), t.def.kind)).value;
}

/** A protobuf body as JSON; what the twin cannot decode answers 415 (envelope.ts says why). */
function protobufBody(raw: Buffer): JsonValue {
  try {
    return decodeProtobuf(raw);
  } catch (error) {
    if (!(error instanceof ProtobufError)) throw error;
    throw new ApiError(415, 'UnsupportedMediaType', error.message, {
      causes: [{ reason: 'UnsupportedMediaType', message: protobufMediaType }],
    });
  }
}

/**
 * A DELETE body (handlers/delete.go): DeleteOptions in JSON, YAML or protobuf, through the plain
 * (never strict) decoder of metainternalversionscheme.Codecs, so unknown fields are dropped.
 */
export function decodeDeleteBody(raw: Buffer, contentType: string): JsonObject {
  const type = mediaType(contentType);
  if (type === protobufMediaType) return asRecord(protobufBody(raw));
  if (!['application/json', 'application/yaml', ''].includes(type))
    throw unsupportedMediaType(type, ['application/json', 'application/yaml', protobufMediaType]);
  return asRecord(decodeBody(raw.toString('utf8'), contentType));
}

/** Deterministic block YAML for the configuration snippets findings carry. */

export type Dict = Record<string, unknown>;

/** A YAML mapping: not null, not a list. */
export function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const RESERVED = /^(y|n|yes|no|true|false|on|off|null|~)$/i;

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan';
    if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
    return String(value);
  }
  if (typeof value === 'string') {
    return (PLAIN.test(value) || DURATION.test(value)) && !RESERVED.test(value)
      ? value
      : JSON.stringify(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? 'null';
}

function block(value: unknown, indent: string): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((item) => {
      if (
        (isDict(item) && Object.keys(item).length > 0) ||
        (Array.isArray(item) && item.length > 0)
      ) {
        const [first = '', ...rest] = block(item, `${indent}  `);
        return [`${indent}- ${first.trimStart()}`, ...rest];
      }
      return [`${indent}- ${inline(item)}`];
    });
  }
  if (isDict(value)) {
    return Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .flatMap(([key, v]) => {
        const k = scalar(key);
        const nested =
          (isDict(v) && Object.keys(v).length > 0) || (Array.isArray(v) && v.length > 0);
        return nested
          ? [`${indent}${k}:`, ...block(v, `${indent}  `)]
          : [`${indent}${k}: ${inline(v)}`];
      });
  }
  return [`${indent}${inline(value)}`];
}

function inline(value: unknown): string {
  if (Array.isArray(value) && value.length === 0) return '[]';
  if (isDict(value) && Object.keys(value).length === 0) return '{}';
  return scalar(value);
}

/** Key order as given, so the output is stable; strings quoted unless plainly safe. */
export function toYaml(value: Dict): string {
  return block(value, '').join('\n');
}

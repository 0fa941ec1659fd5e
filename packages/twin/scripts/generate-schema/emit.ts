// Turns the Go type model into TypeScript schema builders (src/schema/types.ts): one const per
// struct, in dependency order, each in the first output file whose roots reach it.

import type { GoField, GoPackage, GoType } from './go-types.js';

/** Types outside the parsed packages, as the apiserver's OpenAPI models describe them. */
const external: Record<string, { code: string; struct: boolean }> = {
  'meta.Time': { code: 'str', struct: true },
  'meta.MicroTime': { code: 'str', struct: true },
  'meta.Duration': { code: 'str', struct: true },
  'meta.FieldsV1': { code: 'deduced', struct: true },
  'resource.Quantity': { code: 'untyped', struct: true },
  'intstr.IntOrString': { code: 'untyped', struct: true },
  'types.UID': { code: 'str', struct: false },
  'runtime.RawExtension': { code: 'deduced', struct: true },
};

const primitives: Record<string, string> = {
  string: 'str',
  bool: 'bool',
  byte: 'num',
  int: 'num',
  int32: 'num',
  int64: 'num',
  uint: 'num',
  uint32: 'num',
  uint64: 'num',
  float32: 'num',
  float64: 'num',
};

interface Resolved {
  code: string;
  /** Go encodes a zero value of this type (a struct) even with omitempty. */
  struct: boolean;
  deps: Set<GoType>;
}

export class Emitter {
  readonly constName = new Map<GoType, string>();

  constructor(private readonly packages: ReadonlyMap<string, GoPackage>) {}

  lookup(pkg: GoPackage, ref: string): GoType | { external: string } | undefined {
    const dot = ref.indexOf('.');
    if (dot < 0) {
      const local = `${pkg.key}.${ref}`;
      return external[local] ? { external: local } : pkg.types.get(ref);
    }
    const alias = ref.slice(0, dot);
    const name = ref.slice(dot + 1);
    const key = pkg.aliases.get(alias) ?? alias;
    const ext = `${key}.${name}`;
    if (external[ext]) return { external: ext };
    return this.packages.get(key)?.types.get(name);
  }

  nameOf(t: GoType): string {
    const known = this.constName.get(t);
    if (known) return known;
    const taken = new Set(this.constName.values());
    const name = taken.has(t.name)
      ? `${t.pkg[0]?.toUpperCase()}${t.pkg.slice(1)}${t.name}`
      : t.name;
    this.constName.set(t, name);
    return name;
  }

  /** Resolves a Go type expression with the markers of the field (or named type) using it. */
  resolve(pkg: GoPackage, expr: string, markers: Map<string, string[]>): Resolved {
    let e = expr.trim();
    let pointer = false;
    if (e.startsWith('*')) {
      pointer = true;
      e = e.slice(1);
    }
    const mark = (k: string): string | undefined => markers.get(k)?.at(-1);
    if (e === '[]byte') return { code: 'str', struct: false, deps: new Set() };
    if (e.startsWith('[]')) {
      const item = this.resolve(pkg, e.slice(2), new Map());
      const type = mark('listType') ?? 'atomic';
      const keys = markers.get('listMapKey') ?? [];
      const code =
        type === 'map'
          ? `mapList(${item.code}, ${keys.map((k) => `'${k}'`).join(', ')})`
          : type === 'set'
            ? `setList(${item.code})`
            : `atomicList(${item.code})`;
      return { code, struct: false, deps: item.deps };
    }
    const mm = /^map\[[^\]]+\](.+)$/.exec(e);
    if (mm?.[1]) {
      const value = this.resolve(pkg, mm[1], new Map());
      const atomic = mark('mapType') === 'atomic';
      return {
        code: `mapOf(${value.code}${atomic ? ', true' : ''})`,
        struct: false,
        deps: value.deps,
      };
    }
    if (primitives[e]) return { code: primitives[e] ?? 'str', struct: false, deps: new Set() };
    const found = this.lookup(pkg, e);
    if (!found) throw new Error(`unknown Go type ${expr} in ${pkg.key}`);
    if ('external' in found) {
      const ext = external[found.external];
      return {
        code: ext?.code ?? 'deduced',
        struct: (ext?.struct ?? false) && !pointer,
        deps: new Set(),
      };
    }
    if (found.fields === undefined) {
      const merged = new Map([...found.markers, ...markers]);
      const target = this.packages.get(found.pkg);
      if (!target) throw new Error(`no package ${found.pkg}`);
      return this.resolve(target, found.underlying ?? 'string', merged);
    }
    const atomicField =
      mark('structType') === 'atomic' && found.markers.get('structType')?.at(-1) !== 'atomic';
    const name = this.nameOf(found);
    return {
      code: atomicField ? `{ ...${name}, atomic: true }` : name,
      struct: !pointer,
      deps: new Set([found]),
    };
  }

  /** The fields of a struct with inlined embedded structs flattened, in Go order. */
  fieldsOf(t: GoType): { pkg: GoPackage; field: GoField }[] {
    const pkg = this.packages.get(t.pkg);
    if (!pkg) throw new Error(`no package ${t.pkg}`);
    const out: { pkg: GoPackage; field: GoField }[] = [];
    for (const field of t.fields ?? []) {
      if (field.inline) {
        const inner = this.lookup(pkg, field.type.replace(/^\*/, ''));
        if (!inner || 'external' in inner) throw new Error(`cannot inline ${field.type}`);
        out.push(...this.fieldsOf(inner));
      } else {
        out.push({ pkg, field });
      }
    }
    return out;
  }

  /** The builder for one struct, and the structs it references. */
  structCode(t: GoType): { code: string; deps: Set<GoType> } {
    const deps = new Set<GoType>();
    const lines: string[] = [];
    for (const { pkg, field } of this.fieldsOf(t)) {
      const r = this.resolve(pkg, field.type, field.markers);
      for (const d of r.deps) deps.add(d);
      const extras: string[] = [];
      if (!field.omitempty || r.struct) extras.push('zero: true');
      const def = field.markers.get('default')?.at(-1);
      if (def !== undefined && /^(".*"|-?\d+|true|false)$/.test(def))
        extras.push(`default: ${def}`);
      if (field.patchStrategy) extras.push(`patchStrategy: '${field.patchStrategy}'`);
      if (field.patchMergeKey) extras.push(`patchMergeKey: '${field.patchMergeKey}'`);
      const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(field.json) ? field.json : `'${field.json}'`;
      lines.push(
        extras.length === 0
          ? `  ${key}: ${r.code},`
          : `  ${key}: f(${r.code}, { ${extras.join(', ')} }),`,
      );
    }
    const atomic = t.markers.get('structType')?.at(-1) === 'atomic';
    const body = `struct('${t.name}', {\n${lines.join('\n')}\n}${atomic ? ', { atomic: true }' : ''})`;
    return { code: `export const ${this.nameOf(t)}: MapNode = ${body};`, deps };
  }
}

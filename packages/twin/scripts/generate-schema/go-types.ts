// Reads the Go API types (k8s.io/api/<group>/<version>/types.go, k8s.io/apimachinery meta/v1)
// into a small model: structs with their json names, omitempty, pointer-ness, the +listType /
// +listMapKey / +mapType / +structType / +default markers and the strategic-merge struct tags.

import { readFileSync } from 'node:fs';

export interface GoField {
  /** The json name; '' for an inlined embedded struct. */
  json: string;
  inline: boolean;
  omitempty: boolean;
  type: string;
  markers: Map<string, string[]>;
  patchStrategy: string | undefined;
  patchMergeKey: string | undefined;
}

export interface GoType {
  pkg: string;
  name: string;
  /** For structs, the fields in order; else undefined and `underlying` is the type expression. */
  fields: GoField[] | undefined;
  underlying: string | undefined;
  markers: Map<string, string[]>;
}

export interface GoPackage {
  key: string;
  types: Map<string, GoType>;
  /** Import alias to package key. */
  aliases: Map<string, string>;
}

function addMarker(markers: Map<string, string[]>, line: string): void {
  const m = /^\/\/\s*\+([a-zA-Z0-9:.-]+)(?:=(.*))?$/.exec(line.trim());
  if (!m?.[1]) return;
  const list = markers.get(m[1]) ?? [];
  list.push((m[2] ?? '').trim());
  markers.set(m[1], list);
}

function tag(tags: string, name: string): string | undefined {
  return new RegExp(`${name}:"([^"]*)"`).exec(tags)?.[1];
}

/** Parses the struct and named types of the given files; `importPaths` maps Go paths to keys. */
export function readPackage(
  key: string,
  files: readonly string[],
  importPaths: Readonly<Record<string, string>>,
): GoPackage {
  const types = new Map<string, GoType>();
  const aliases = new Map<string, string>();
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let markers = new Map<string, string[]>();
    let current: GoType | undefined;
    let inImport = false;
    for (const raw of lines) {
      const line = raw.trim();
      if (line.startsWith('import (')) {
        inImport = true;
        continue;
      }
      if (inImport) {
        if (line === ')') inImport = false;
        const im = /^(?:([A-Za-z0-9_]+)\s+)?"([^"]+)"$/.exec(line);
        if (im?.[2] && importPaths[im[2]]) {
          const alias = im[1] ?? im[2].slice(im[2].lastIndexOf('/') + 1);
          aliases.set(alias, importPaths[im[2]] ?? '');
        }
        continue;
      }
      if (current) {
        if (line === '}') {
          current = undefined;
          markers = new Map();
          continue;
        }
        if (line.startsWith('//')) {
          addMarker(markers, line);
          continue;
        }
        if (line === '') {
          markers = new Map();
          continue;
        }
        const fm = /^(?:([A-Za-z0-9_]+)\s+)?([^`]+?)\s*`([^`]*)`/.exec(line);
        if (fm?.[2] && fm[3] !== undefined) {
          const tags = fm[3];
          const json = tag(tags, 'json') ?? '';
          const [name = '', ...opts] = json.split(',');
          if (name !== '-') {
            current.fields?.push({
              json: name,
              inline: opts.includes('inline') || (fm[1] === undefined && name === ''),
              omitempty: opts.includes('omitempty'),
              type: fm[2].trim(),
              markers,
              patchStrategy: tag(tags, 'patchStrategy'),
              patchMergeKey: tag(tags, 'patchMergeKey'),
            });
          }
        }
        markers = new Map();
        continue;
      }
      if (line.startsWith('//')) {
        addMarker(markers, line);
        continue;
      }
      const sm = /^type ([A-Z][A-Za-z0-9_]*) struct \{$/.exec(line);
      if (sm?.[1]) {
        current = { pkg: key, name: sm[1], fields: [], underlying: undefined, markers };
        types.set(sm[1], current);
        markers = new Map();
        continue;
      }
      const nm = /^type ([A-Z][A-Za-z0-9_]*) (\S.*?)(?:\s*\/\/.*)?$/.exec(line);
      if (nm?.[1] && nm[2] && !nm[2].startsWith('interface') && !nm[2].startsWith('=')) {
        types.set(nm[1], {
          pkg: key,
          name: nm[1],
          fields: undefined,
          underlying: nm[2],
          markers,
        });
      }
      if (line === '' || !line.startsWith('//')) markers = new Map();
    }
  }
  return { key, types, aliases };
}

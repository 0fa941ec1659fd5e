// Loads a scenario (TWIN.md): a multi-document YAML file whose first document is the validated
// header and whose others are Kubernetes objects, plus generated bulk objects and the defaults
// the contract promises (namespaces, Ready nodes, Running pods).

import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { generateNodes, generateServices } from './generate.js';
import { findByKind, resources } from '../registry/resources.js';
import { applyScenarioDefaults } from './defaults.js';
import type { ScenarioHeader } from './schema.js';
import { scenarioHeaderSchema } from './schema.js';
import type { JsonObject, KubeObject } from '../apimachinery/types.js';
import { asArray, asRecord, isJsonObject } from '../apimachinery/types.js';

export interface Scenario {
  header: ScenarioHeader;
  /** The header document as written, served at /twin/scenario. */
  headerJson: JsonObject;
  objects: KubeObject[];
  /** Things skipped on purpose, such as DaemonSet-owned pods. */
  warnings: string[];
  source: string;
}

export class ScenarioError extends Error {
  constructor(source: string, message: string) {
    super(`scenario ${source}: ${message}`);
    this.name = 'ScenarioError';
  }
}

/** `<repo>/scenarios`, found from this module: src/twin/ under tsx, dist/twin/ once built. */
export const shippedScenarioDir = fileURLToPath(new URL('../../scenarios/', import.meta.url));

export function shippedScenarioNames(): string[] {
  if (!existsSync(shippedScenarioDir)) return [];
  return readdirSync(shippedScenarioDir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** A path if it looks like one or exists; otherwise a shipped scenario name. */
export function resolveScenarioPath(nameOrPath: string): string {
  if (nameOrPath.includes('/') || /\.ya?ml$/.test(nameOrPath) || existsSync(nameOrPath))
    return nameOrPath;
  const shipped = `${shippedScenarioDir}${nameOrPath}.yaml`;
  if (existsSync(shipped)) return shipped;
  throw new ScenarioError(
    nameOrPath,
    `no such file and no shipped scenario of that name (shipped: ${shippedScenarioNames().join(', ') || 'none'})`,
  );
}

export async function loadScenario(nameOrPath: string): Promise<Scenario> {
  const path = resolveScenarioPath(nameOrPath);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(path, `cannot read: ${(error as Error).message}`);
  }
  return parseScenario(text, path);
}

function formatPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
      .join('') || '(root)'
  );
}

function parseHeader(doc: unknown, source: string): { header: ScenarioHeader; json: JsonObject } {
  const result = scenarioHeaderSchema.safeParse(doc);
  if (!result.success) {
    const problems = result.error.issues
      .map((i) => `${formatPath(i.path)}: ${i.message}`)
      .join('; ');
    throw new ScenarioError(source, `document 1 (the Scenario header): ${problems}`);
  }
  return { header: result.data, json: doc as JsonObject };
}

function checkObject(doc: unknown, index: number, source: string): KubeObject {
  const where = `document ${index}`;
  if (!isJsonObject(doc))
    throw new ScenarioError(source, `${where}: expected a Kubernetes object (a mapping)`);
  const { apiVersion, kind } = doc;
  if (typeof apiVersion !== 'string' || apiVersion === '')
    throw new ScenarioError(source, `${where}: apiVersion: required`);
  if (typeof kind !== 'string' || kind === '')
    throw new ScenarioError(source, `${where}: kind: required`);
  if (!findByKind(apiVersion, kind)) {
    const known = resources.map((r) => r.kind).join(', ');
    throw new ScenarioError(
      source,
      `${where}: kind ${kind} (${apiVersion}) is not served by the twin (known kinds: ${known})`,
    );
  }
  const metadata = asRecord(doc['metadata']);
  if (typeof metadata['name'] !== 'string' || metadata['name'] === '') {
    throw new ScenarioError(source, `${where} (${kind}): metadata.name: required`);
  }
  const obj: KubeObject = { ...doc, apiVersion, kind, metadata: { ...metadata } };
  return obj;
}

export function parseScenario(text: string, source = '<inline>'): Scenario {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs))
    throw new ScenarioError(source, 'empty file: expected a Scenario header document');
  const values: unknown[] = [];
  for (const [i, doc] of docs.entries()) {
    if (doc.errors.length > 0)
      throw new ScenarioError(
        source,
        `document ${i + 1}: ${doc.errors[0]?.message ?? 'invalid YAML'}`,
      );
    values.push(doc.toJS());
  }
  const present = values
    .map((v, i) => ({ v, i: i + 1 }))
    .filter(({ v }) => v !== null && v !== undefined);
  const first = present[0];
  if (!first) throw new ScenarioError(source, 'empty file: expected a Scenario header document');
  const { header, json } = parseHeader(first.v, source);
  const objects: KubeObject[] = [];
  for (const { v, i } of present.slice(1)) {
    if (isJsonObject(v) && v['kind'] === 'List') {
      for (const item of asArray(v['items'])) objects.push(checkObject(item, i, source));
    } else {
      objects.push(checkObject(v, i, source));
    }
  }
  const generate = header.spec.generate;
  if (generate) {
    const nodes = generateNodes(generate.nodes, header.spec.kubernetesVersion);
    objects.push(...nodes);
    if (generate.services) {
      const generated = generateServices(
        generate.services,
        nodes.map((n) => n.metadata.name ?? ''),
      );
      objects.push(...generated.objects);
    }
  }
  const warnings: string[] = [];
  const kept = applyScenarioDefaults(objects, header, warnings);
  return { header, headerJson: json, objects: kept, warnings, source };
}

// A shipped scenario with extra header lines (host entries, spec fields), written to a temporary
// file: how the kubelet tests give the twin images, timings and hosts of their own.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveScenarioPath } from '../../../src/scenario/scenario.js';

export interface VariantEdits {
  /** YAML list entries appended to spec.hosts (they apply last), indented for it (4 spaces). */
  hosts?: string;
  /** YAML appended to spec (2 spaces), e.g. `images:` or `timings:`. */
  spec?: string;
}

export async function writeScenarioVariant(
  dir: string,
  base: string,
  edits: VariantEdits,
): Promise<string> {
  let text = await readFile(resolveScenarioPath(base), 'utf8');
  // The shipped headers end their hosts list with `faults: []`.
  if (edits.hosts !== undefined)
    text = text.replace('\n  faults: []\n', `\n${edits.hosts}  faults: []\n`);
  if (edits.spec !== undefined)
    text = text.replace('\n  faults: []\n', `\n  faults: []\n${edits.spec}`);
  const path = join(dir, `${base}-variant.yaml`);
  await writeFile(path, text);
  return path;
}

// Writes docs/report.schema.json, the published JSON Schema of `preflight -o json`, from the zod
// schema in src/core/report-schema.ts (npm run schema). test/unit/core/report-schema.test.ts
// fails when the checked-in file is not what this writes.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { reportJsonSchema } from '../src/core/report-schema.js';

export const SCHEMA_PATH = join(import.meta.dirname, '../docs/report.schema.json');

/** The file's content: the schema as JSON, formatted as `prettier --check .` wants it. */
export async function schemaFileText(): Promise<string> {
  const options = (await resolveConfig(SCHEMA_PATH)) ?? {};
  return format(JSON.stringify(reportJsonSchema()), { ...options, parser: 'json' });
}

if (process.argv[1] === import.meta.filename) {
  await writeFile(SCHEMA_PATH, await schemaFileText());
  console.log(`wrote ${SCHEMA_PATH}`);
}

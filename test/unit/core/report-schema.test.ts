// The published JSON Schema is what `npm run schema` writes from the zod schema, and the zod
// schema accepts the reports the code builds (the integration test validates real ones).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportJsonSchema, reportSchema } from '../../../src/core/report-schema.js';
import { REPORT_SCHEMA_VERSION } from '../../../src/core/report.js';
import { SCHEMA_PATH, schemaFileText } from '../../../scripts/report-schema.js';

describe('docs/report.schema.json', () => {
  it('is current: run `npm run schema` after changing src/core/report-schema.ts', async () => {
    expect(readFileSync(SCHEMA_PATH, 'utf8')).toBe(await schemaFileText());
  });

  it('names its version and closes its enumerations', () => {
    const schema = reportJsonSchema() as {
      properties: Record<string, { const?: unknown; enum?: unknown[] }>;
      additionalProperties?: unknown;
    };
    expect(schema.properties['schemaVersion']?.const).toBe(REPORT_SCHEMA_VERSION);
    expect(schema.properties['platform']?.enum).toContain('kubeadm');
    expect(schema.additionalProperties).toBe(false);
  });

  it('rejects a report whose platform is a display name instead of a slug', () => {
    const report = {
      schemaVersion: REPORT_SCHEMA_VERSION,
      cluster: 'c',
      generatedAt: '2026-12-01T10:00:00.000Z',
      kubernetesVersion: 'v1.33.4',
      platform: 'Amazon EKS',
      platformName: 'Amazon EKS',
      currentMode: 'ipvs',
      summary: { block: 0, warn: 0, info: 0, pass: 0 },
      pools: [],
      complete: true,
      probing: { mode: 'all', nodes: 0, probed: 0, pools: [] },
      unprobed: [],
      hosts: [],
      findings: [],
    };
    expect(reportSchema.safeParse(report).success).toBe(false);
    expect(reportSchema.safeParse({ ...report, platform: 'eks' }).success).toBe(true);
  });
});

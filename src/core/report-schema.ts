/**
 * The public shape of the JSON report (`proxy-migrate preflight -o json`), as a zod schema:
 * `npm run schema` publishes it as docs/report.schema.json (zod's toJSONSchema), and a test
 * keeps that file current and validates real reports against it. Enumerations are closed
 * (severities, scopes, platforms, probe modes) so readers can switch on them; descriptions say
 * what each field means. A change a reader could trip on bumps REPORT_SCHEMA_VERSION.
 */
import { z } from 'zod';
import { severities } from './findings.js';
import { platformKinds } from './platform.js';
import { probeModes } from './probe-selection.js';
import { REPORT_SCHEMA_VERSION, type PreflightReport } from './report.js';

const count = z.number().int().nonnegative();

const finding = z
  .object({
    check: z.string().describe('The check’s public id (what --suppress takes).'),
    severity: z
      .enum(severities)
      .describe('block forbids cutting the scope over; warn needs a decision; pass ran clean.'),
    scope: z.object({
      kind: z.enum(['cluster', 'pool', 'node']),
      name: z.string().describe('The cluster, pool or node name.'),
    }),
    subjects: z.array(z.string()).describe('Node names, namespace/name of objects, metrics.'),
    title: z.string().describe('One line: what was found.'),
    detail: z.string().describe('Why it matters, with the evidence, in prose.'),
    remedy: z.string().optional().describe('What to do; present on every block and warn.'),
    commands: z.array(z.string()).describe('Exact commands or config snippets.'),
  })
  .strict();

const hostAddress = z
  .object({ interface: z.string(), address: z.string(), prefixlen: count })
  .strict();

const probeError = z.object({ probe: z.string(), code: z.string(), message: z.string() }).strict();

const host = z
  .object({
    node: z.string(),
    pool: z.string(),
    kernel: z.string().optional().describe('`uname -r` on the host: the kernel running.'),
    nft: z
      .discriminatedUnion('status', [
        z.object({ status: z.literal('present'), version: z.string() }).strict(),
        z.object({ status: z.literal('missing') }).strict(),
        z.object({ status: z.literal('unknown') }).strict(),
      ])
      .describe(
        'The host’s own nft (`nft --version` through chroot); kube-proxy uses its image’s.',
      ),
    conntrack: z
      .object({
        count: count.optional(),
        max: count.optional(),
        invalidPerCpu: z.array(count).describe('`invalid=` per CPU from `conntrack -S`.'),
      })
      .strict()
      .optional(),
    addresses: z
      .array(hostAddress)
      .optional()
      .describe('`ip -j addr` without loopback, link-local, kube-ipvs0 and CNI interfaces.'),
    proxyMode: z.string().optional().describe('What kube-proxy’s /proxyMode answered.'),
    errors: z.array(probeError).describe('Probes that failed: those facts are unknown.'),
  })
  .strict();

const poolSelection = z
  .object({
    pool: z.string(),
    total: count,
    sampled: z.array(z.string()),
    outliers: z.array(z.object({ node: z.string(), differs: z.array(z.string()) }).strict()),
  })
  .strict();

export const reportSchema = z
  .object({
    schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
    cluster: z.string(),
    generatedAt: z.iso.datetime(),
    kubernetesVersion: z.string(),
    platform: z.enum(platformKinds).describe('Stable slug of the platform.'),
    platformName: z.string().describe('The platform’s name for people, e.g. "Amazon EKS".'),
    currentMode: z.string().describe('kube-proxy’s effective mode, or "unknown".'),
    summary: z.object(Object.fromEntries(severities.map((s) => [s, count]))).strict(),
    pools: z.array(z.object({ name: z.string(), nodes: z.array(z.string()) }).strict()),
    complete: z
      .boolean()
      .describe(
        'False when a node was not probed or its probes failed: its host facts are unknown, and unknown never passes.',
      ),
    probing: z
      .object({
        mode: z.enum(probeModes),
        nodes: count.describe('Nodes in the cluster.'),
        probed: count.describe('Nodes probed (in `hosts`).'),
        pools: z.array(poolSelection).describe('In sample mode: what was sampled, per pool.'),
      })
      .strict(),
    unprobed: z.array(z.object({ node: z.string(), reason: z.string() }).strict()),
    hosts: z.array(host).describe('The host facts each probed node showed: the evidence as data.'),
    findings: z.array(finding),
  })
  .strict()
  .describe('proxy-migrate pre-flight report');

export type ReportJson = z.infer<typeof reportSchema>;

/** Compile-time guard: every report the code builds fits the published schema. */
export const asReportJson = (report: PreflightReport): ReportJson => report;

/** The published JSON Schema (docs/report.schema.json). */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://proxy-migrate.io/schemas/report.schema.json',
    title: `proxy-migrate pre-flight report, schema version ${REPORT_SCHEMA_VERSION}`,
    ...z.toJSONSchema(reportSchema, { target: 'draft-2020-12' }),
  };
}

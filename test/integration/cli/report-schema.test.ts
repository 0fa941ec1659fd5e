// Real `preflight -o json` reports, from several twin scenarios, validate against the published
// docs/report.schema.json with a JSON Schema validator (Ajv, draft 2020-12), and carry the
// platform as a slug, the host facts as data and what the probes covered.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { startTwin } from '@proxy-migrate/twin';
import type { PreflightReport } from '../../../src/core/report.js';
import { SCHEMA_PATH } from '../../../scripts/report-schema.js';
import { cliIn } from '../../helpers/cli.js';

const schema = JSON.parse(await readFile(SCHEMA_PATH, 'utf8')) as object;
// Formats are not checked: the schema's own patterns pin date-times down already.
const validate = new Ajv2020({ strict: true, allErrors: true, validateFormats: false }).compile(
  schema,
);

async function reportOf(scenario: string, ...flags: string[]): Promise<PreflightReport> {
  const twin = await startTwin({ scenario, speed: 10 });
  const dir = await mkdtemp(join(tmpdir(), 'pm-schema-'));
  try {
    const kubeconfig = join(dir, 'kubeconfig');
    await twin.writeKubeconfig(kubeconfig);
    const cli = cliIn(join(dir, 'runs'));
    const got = await cli.run('preflight', '--kubeconfig', kubeconfig, '-o', 'json', ...flags);
    expect([0, 2, 3], got.stderr).toContain(got.code);
    return JSON.parse(got.stdout) as PreflightReport;
  } finally {
    await twin.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('preflight -o json against docs/report.schema.json', () => {
  // k3s embeds kube-proxy in its agent: its probes fail (reported as errors, validated all the same).
  it.each([
    ['kubeadm-ipvs', 'kubeadm', 'kubeadm', true],
    ['eks-al2-al2023', 'eks', 'Amazon EKS', true],
    ['aks', 'aks', 'Azure AKS', true],
    ['k3s', 'k3s', 'k3s', false],
  ])('%s: validates, platform %s (%s), every node probed', async (scenario, slug, name, read) => {
    const report = await reportOf(scenario);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report).toMatchObject({ schemaVersion: 1, platform: slug, platformName: name });
    // A small fleet is probed in full by default: every probed node's facts, as data.
    expect(report.probing.mode).toBe('all');
    expect(report.hosts.length).toBe(report.probing.probed);
    const probedOk = report.hosts.filter((h) => h.errors.length === 0);
    expect(probedOk.length > 0).toBe(read);
    for (const host of probedOk) {
      expect(host.kernel).toMatch(/^\d+\.\d+/);
      expect(host.conntrack?.invalidPerCpu.length).toBeGreaterThan(0);
      expect(host.nft.status).not.toBe('unknown');
    }
  });

  it('a --probe none report validates too, and says it is incomplete', async () => {
    const report = await reportOf('kubeadm-ipvs', '--probe', 'none');
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report).toMatchObject({
      complete: false,
      probing: { mode: 'none', probed: 0 },
      hosts: [],
    });
    expect(report.findings).toContainEqual(
      expect.objectContaining({ check: 'node-probes', severity: 'warn' }),
    );
  });
});

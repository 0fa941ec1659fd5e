// deploy/monitoring renders with the real kubectl, and every alert links to a runbook section
// that exists.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const ROOT = join(import.meta.dirname, '../../..');

/** GitHub's anchor for a Markdown heading. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

describe('deploy/monitoring', () => {
  const rendered = execFileSync('kubectl', ['kustomize', join(ROOT, 'deploy/monitoring')], {
    encoding: 'utf8',
  });
  const docs = parseAllDocuments(rendered).map(
    (d) =>
      d.toJS() as {
        kind: string;
        metadata: { name: string; namespace?: string; labels?: Record<string, string> };
        spec?: unknown;
        data?: Record<string, string>;
      },
  );

  it('renders a ServiceMonitor, a PrometheusRule and the dashboard ConfigMap', () => {
    expect(docs.map((d) => d.kind).sort()).toEqual([
      'ConfigMap',
      'PrometheusRule',
      'ServiceMonitor',
    ]);
    for (const d of docs) expect(d.metadata.namespace).toBe('proxy-migrate');
    const dashboard = docs.find((d) => d.kind === 'ConfigMap');
    expect(dashboard?.metadata.labels?.['grafana_dashboard']).toBe('1');
    const json = JSON.parse(dashboard?.data?.['grafana-dashboard.json'] ?? '{}') as {
      uid?: string;
    };
    expect(json.uid).toBe('proxy-migrate');
  });

  it('links every alert to a section of docs/runbook.md', () => {
    const rule = docs.find((d) => d.kind === 'PrometheusRule') as unknown as {
      spec: { groups: { rules: { alert: string; annotations: { runbook_url: string } }[] }[] };
    };
    const headings = readFileSync(join(ROOT, 'docs/runbook.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('## '))
      .map((l) => anchor(l.slice(3)));
    const alerts = rule.spec.groups.flatMap((g) => g.rules);
    expect(alerts.length).toBeGreaterThanOrEqual(4);
    for (const a of alerts) {
      const target = a.annotations.runbook_url.split('#')[1] ?? '';
      expect(headings, a.alert).toContain(target);
    }
  });
});

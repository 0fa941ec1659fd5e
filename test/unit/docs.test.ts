// The documents a project carries exist and stay true: every relative link in them points at a
// file (and, for Markdown, a heading) that exists; every error code is on the troubleshooting
// page; the Slack app manifest's usage hint names exactly the verbs the bot has; the CI workflow
// runs what .ci/run runs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { verbs } from '../../src/commands/index.js';
import { errorCodes } from '../../src/errors.js';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

const documents = [
  'LICENSE',
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'SECURITY.md',
  'docs/architecture.md',
  'docs/runbook.md',
  'docs/troubleshooting.md',
  '.github/workflows/ci.yml',
];

/** README.md, the other top-level documents and docs/*.md: the pages whose links must hold. */
const linkedPages = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'SECURITY.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown without fenced blocks, indented code blocks and inline code: links there are text. */
function prose(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/^(?: {4}|\t).*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

/** Inline links `[text](target)` and reference definitions `[label]: target`. */
function linksOf(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
  const defined = [...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? '');
  return [...inline, ...defined];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const headings = markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .filter((line) => /^#{1,6}\s/.test(line))
    .map((line) =>
      line
        .replace(/^#{1,6}\s+/, '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  return new Set(headings);
}

const external = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** The links of `markdown` (as if it were the file `page`) whose file or heading is missing. */
function brokenLinks(page: string, markdown: string): string[] {
  return linksOf(markdown)
    .filter((target) => !external(target))
    .flatMap((target) => {
      const [path = '', anchor] = target.split('#', 2);
      const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), path);
      if (!file.startsWith(root + '/') || !existsSync(file)) return [`${target}: no such file`];
      if (anchor === undefined || anchor === '' || !file.endsWith('.md')) return [];
      if (statSync(file).isDirectory()) return [];
      return anchorsOf(readFileSync(file, 'utf8')).has(anchor)
        ? []
        : [`${target}: no heading #${anchor} in ${relative(root, file)}`];
    });
}

describe('project documents', () => {
  it.each(documents)('%s exists and is not empty', (path) => {
    expect(existsSync(join(root, path))).toBe(true);
    expect(read(path).trim().length).toBeGreaterThan(200);
  });

  it('LICENSE is the Apache License 2.0, as package.json declares', () => {
    const pkg = JSON.parse(read('package.json')) as { license: string };
    expect(pkg.license).toBe('Apache-2.0');
    const license = read('LICENSE');
    expect(license).toContain('Apache License');
    expect(license).toContain('Version 2.0, January 2004');
    expect(license).toContain('END OF TERMS AND CONDITIONS');
  });

  it('README points at the architecture inside the repository, not at a file outside it', () => {
    const readme = read('README.md');
    expect(readme).toContain('](docs/architecture.md)');
    expect(readme).not.toMatch(/\.\.\/shared\//);
  });

  it.each(linkedPages)('every relative link in %s points at a file that exists', (page) => {
    expect(brokenLinks(page, read(page))).toEqual([]);
  });

  it('the link checker sees links, and would see a broken one', () => {
    const links = linksOf('See [a](docs/a.md#x), `[b](c.md)` and [w](https://x.y).\n[d]: e.md\n');
    expect(links).toEqual(['docs/a.md#x', 'https://x.y', 'e.md']);
    expect(anchorsOf('## Redis is down (`QUEUE_UNAVAILABLE`)\n')).toEqual(
      new Set(['redis-is-down-queue_unavailable']),
    );
    const page = '[x](nope.md) [y](README.md#no-such-heading) [z](README.md#http-edge) [t](#x)';
    expect(brokenLinks('CONTRIBUTING.md', page)).toEqual([
      'nope.md: no such file',
      'README.md#no-such-heading: no heading #no-such-heading in README.md',
      '#x: no heading #x in CONTRIBUTING.md',
    ]);
  });

  it('the troubleshooting page explains every error code', () => {
    const page = read('docs/troubleshooting.md');
    expect(errorCodes.filter((code) => !page.includes(`\`${code}\``))).toEqual([]);
  });

  it('every repository path the architecture page names exists', () => {
    const page = read('docs/architecture.md');
    const paths = [...page.matchAll(/`((?:src|packages|deploy|scripts|test)\/[^`\s<>*]+)`/g)].map(
      (m) => m[1] ?? '',
    );
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });
});

describe('what Slack is promised', () => {
  it("the app manifest's usage hint names exactly the verbs the bot has", () => {
    const manifest = parse(read('deploy/slack-app-manifest.yaml')) as {
      features: { slash_commands: { usage_hint: string }[] };
    };
    const hint = manifest.features.slash_commands[0]?.usage_hint ?? '';
    const named = hint.split('|').map((part) => part.trim().split(/\s+/)[0]);
    expect(named).toEqual(verbs.map((v) => v.name));
  });
});

describe('the CI workflow mirrors .ci/run', () => {
  interface Step {
    run?: string;
    uses?: string;
    with?: Record<string, unknown>;
  }
  const workflow = parse(read('.github/workflows/ci.yml')) as {
    jobs: Record<string, { services?: Record<string, { image: string }>; steps: Step[] }>;
  };
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const runs = steps.map((s) => s.run ?? '').join('\n');

  it('runs npm ci and npm test against a Redis service, with kubectl installed', () => {
    const ciRun = read('.ci/run');
    expect(ciRun).toContain('npm test');
    const test = workflow.jobs['test'];
    expect(test?.services?.['redis']?.image).toMatch(/^redis:/);
    const commands = (test?.steps ?? []).map((s) => s.run ?? '').join('\n');
    expect(commands).toContain('npm ci');
    expect(commands).toMatch(/^npm test$/m);
    expect(commands).toContain('dl.k8s.io');
    expect(commands).toContain('node dist/main.js --version');
    expect(ciRun).toContain('node dist/main.js --version');
  });

  it('runs everything on the Node the Dockerfile ships, as .ci/run does', () => {
    // .ci/run installs and tests on the image's Node, not the machine's.
    expect(read('.ci/run')).toMatch(/on_image_node 'npm test'/);
    const setup = steps.find((s) => s.uses?.startsWith('actions/setup-node'));
    expect(setup?.with?.['node-version']).toBe('${{ steps.node.outputs.major }}');
    expect(runs).toContain(`sed -n 's/^FROM node:\\([0-9][0-9]*\\).*/\\1/p' Dockerfile`);
  });

  it('renders the kustomize base and builds the images', () => {
    expect(runs).toContain('kubectl kustomize deploy');
    const builds = steps.filter((s) => s.uses?.startsWith('docker/build-push-action'));
    expect(builds.map((s) => s.with?.['context'])).toEqual(['.', 'deploy/probe']);
  });
});

/**
 * deploy/rbac.yaml as text: the objects of rbac-manifest.ts with the reason for every rule as the
 * comment above it, so the rendered file reads as the hand-written one did and a test can keep it
 * equal to this rendering. Pure.
 */
import { Document, isMap, isScalar, isSeq, visit } from 'yaml';
import { defaultRbacTarget, rbacObjects, type RbacTarget } from './rbac-manifest.js';

const OUTPUT = { lineWidth: 100, minContentWidth: 40 } as const;

const header = [
  ' Least privilege for what proxy-migrate does: pre-flight reads the cluster and runs short-lived',
  ' probe pods on nodes; a cutover writes the canary objects, the original DaemonSet’s strategy and',
  ' node affinity, node labels and annotations, and its cluster lock.',
  ' GENERATED from src/core/permissions.ts by `npm run render:install`: edit the permissions (each',
  ' says why it is needed), not this file. test/unit/deploy/rbac.test.ts keeps it current.',
].join('\n');

function comment(text: string): string {
  // Wrapped at about 96 columns, each line a comment of its own.
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line !== '' && line.length + word.length + 1 > 94) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => ` ${l}`).join('\n');
}

export function renderRbacYaml(target: RbacTarget = defaultRbacTarget): string {
  const docs = rbacObjects(target).map(({ object, why }, i) => {
    const doc = new Document(object);
    if (i === 0) doc.commentBefore = header;
    // Lists of names on one line (`verbs: [get, list]`), as RBAC is written by hand.
    visit(doc, {
      Seq(_, node) {
        if (node.items.every((item) => isScalar(item))) node.flow = true;
      },
    });
    const rules = doc.get('rules', true);
    if (isSeq(rules))
      rules.items.forEach((node, j) => {
        if (isMap(node) && why[j] !== undefined) node.commentBefore = comment(why[j]);
      });
    return doc.toString(OUTPUT);
  });
  return docs.join('---\n');
}

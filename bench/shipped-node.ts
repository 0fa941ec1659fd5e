// How the shipped binary starts node: the flags on dist/main.js's `#!/usr/bin/env -S node …`
// line, which the image and `npm i -g` both run it with. A bench that starts `node dist/main.js`
// passes them too, so it measures the product as it runs, not a node without its flags.
import { readFileSync } from 'node:fs';

export function shippedNodeFlags(entry: string): string[] {
  const first = readFileSync(entry, 'utf8').split('\n', 1)[0] ?? '';
  const shebang = /^#!\s*\S*env\s+(?:-S\s+)?node\b(.*)$/.exec(first);
  return shebang?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

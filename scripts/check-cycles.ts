// Fails on import cycles in the product (src/) and in the twin (packages/twin/src/), and on any
// relative import that crosses between them: the product reaches the twin only through its
// package name (`@proxy-migrate/twin`, whose exports map hides everything else), and the twin
// reaches nothing of the product. tsc's rootDir enforces the same at build time.
// Resolution goes through the TypeScript compiler, so `./x.js` specifiers map to `x.ts` exactly as
// tsc sees them (type-only imports count too: a type cycle is still a design cycle).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = resolve('.');
const productDir = join(root, 'src') + sep;
const twinDir = join(root, 'packages', 'twin', 'src') + sep;
const options: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
};

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const resolved: string[] = [];
  for (const spec of specifiers) {
    if (!spec.startsWith('.')) continue;
    const hit = ts.resolveModuleName(spec, file, options, ts.sys).resolvedModule;
    if (hit && !hit.isExternalLibraryImport) resolved.push(resolve(hit.resolvedFileName));
  }
  return resolved;
}

const files = [...listFiles(productDir), ...listFiles(twinDir)];
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const problems: string[] = [];

for (const [file, deps] of graph) {
  const own = file.startsWith(twinDir) ? twinDir : productDir;
  for (const dep of deps) {
    if (dep.startsWith(own)) continue;
    problems.push(
      own === twinDir
        ? `twin imports product code: ${relative(root, file)} -> ${relative(root, dep)}`
        : `product imports twin internals: ${relative(root, file)} -> ${relative(root, dep)} (use '@proxy-migrate/twin')`,
    );
  }
}

// Tarjan's strongly connected components; any component with more than one file is a cycle.
let index = 0;
const indices = new Map<string, number>();
const lowlinks = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();

function connect(file: string): void {
  indices.set(file, index);
  lowlinks.set(file, index);
  index += 1;
  stack.push(file);
  onStack.add(file);
  for (const dep of graph.get(file) ?? []) {
    if (!graph.has(dep)) continue;
    if (!indices.has(dep)) {
      connect(dep);
      lowlinks.set(file, Math.min(lowlinks.get(file)!, lowlinks.get(dep)!));
    } else if (onStack.has(dep)) {
      lowlinks.set(file, Math.min(lowlinks.get(file)!, indices.get(dep)!));
    }
  }
  if (lowlinks.get(file) === indices.get(file)) {
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfLoop = component.length === 1 && (graph.get(file) ?? []).includes(file);
    if (component.length > 1 || selfLoop) {
      problems.push(`import cycle: ${component.map((f) => relative(root, f)).join(' -> ')}`);
    }
  }
}

for (const file of graph.keys()) if (!indices.has(file)) connect(file);

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`import graph ok: ${files.length} files, no cycles, twin isolated`);

// Field paths as field.Path prints them: `spec.template.spec.containers[0].name`, map keys in
// brackets (`data[my key]`), and an empty root as `[]` (apimachinery/pkg/util/validation/field/path.go).

export function child(path: string, ...names: string[]): string {
  let out = path;
  for (const name of names) out = out === '' ? name : `${out}.${name}`;
  return out;
}

export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

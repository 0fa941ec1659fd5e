/** How findings spell out counts and lists of names, so every check words them alike. */

/** How many names a detail line spells out before "and N more". */
export const MAX_NAMED = 10;

/** `a, b and 3 more`. */
export function nameList(names: readonly string[], max = MAX_NAMED): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** `a: x; b: y; and 3 more`: one piece of evidence per item, for details. */
export function evidenceList<T>(
  items: readonly T[],
  show: (item: T) => string,
  max = MAX_NAMED,
): string {
  const more = items.length > max ? `; and ${items.length - max} more` : '';
  return `${items.slice(0, max).map(show).join('; ')}${more}`;
}

/** `a, b, …` (or `a, b, … (12)` with the total): the first few names, for short lines. */
export function clippedList(
  names: readonly string[],
  { max = MAX_NAMED, total = false }: { max?: number; total?: boolean } = {},
): string {
  const clipped = names.length > max ? `, …${total ? ` (${names.length})` : ''}` : '';
  return `${names.slice(0, max).join(', ')}${clipped}`;
}

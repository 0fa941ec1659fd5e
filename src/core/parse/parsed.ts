/**
 * What a parser of tool output returns: the value, or why the text is not what the tool prints.
 * The reason reaches the evidence ("could not read …: <reason>"), so unknown never looks like a pass.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export const parsed = <T>(value: T): Parsed<T> => ({ ok: true, value });

export const unparsable = <T = never>(error: string): Parsed<T> => ({ ok: false, error });

/** JSON.parse without throwing: the reason names what was expected. */
export function parseJson(text: string, what: string): Parsed<unknown> {
  const trimmed = text.trim();
  if (trimmed === '') return unparsable(`${what}: empty output`);
  try {
    return parsed(JSON.parse(trimmed) as unknown);
  } catch (error) {
    return unparsable(`${what}: not JSON (${(error as Error).message})`);
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

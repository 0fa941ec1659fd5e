// POSIX-shell word splitting for the simple command lines the twin accepts through `sh -c`:
// single and double quotes, backslash escapes, and the operators | ; && || (kept as tokens).

export interface ShellToken {
  readonly text: string;
  /** True for an unquoted operator; a quoted '|' is an ordinary word. */
  readonly operator: boolean;
}

export function tokenizeShell(line: string): ShellToken[] {
  const tokens: ShellToken[] = [];
  let word = '';
  let inWord = false;
  const flush = (): void => {
    if (inWord) tokens.push({ text: word, operator: false });
    word = '';
    inWord = false;
  };
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] ?? '';
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end < 0 ? line.length : end;
      word += line.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '"') {
      inWord = true;
      for (i += 1; i < line.length && line[i] !== '"'; i += 1) {
        const d = line[i] ?? '';
        if (d === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) {
          word += line[i + 1] ?? '';
          i += 1;
        } else word += d;
      }
    } else if (c === '\\') {
      word += line[i + 1] ?? '';
      inWord = true;
      i += 1;
    } else if (/\s/.test(c)) flush();
    else if (c === '&' && word.endsWith('>')) word += c;
    else if (c === '|' || c === ';' || c === '&') {
      flush();
      const two = line.slice(i, i + 2);
      const op = two === '&&' || two === '||' ? two : c;
      tokens.push({ text: op, operator: true });
      i += op.length - 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  flush();
  return tokens;
}

/** Words only, operators treated as words: for reading a container's `sh -c` command line. */
export function splitShellWords(line: string): string[] {
  return tokenizeShell(line).map((t) => t.text);
}

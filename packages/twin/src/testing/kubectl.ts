/** The real kubectl against a twin, with a private HOME so discovery caches never leak between tests. */
import { execFile } from 'node:child_process';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type Kubectl = (...args: string[]) => Promise<KubectlResult>;

export interface KubectlOptions {
  /** kubectl is killed after this long (default 60 s); the result then has a non-zero code. */
  timeoutMs?: number;
  /** Most bytes of stdout or stderr (default 1 MiB); a large `get -A -o json` needs more. */
  maxBuffer?: number;
}

export function kubectlWith(
  kubeconfig: string,
  home: string,
  options: KubectlOptions = {},
): Kubectl {
  return (...args) =>
    new Promise((resolve) => {
      execFile(
        'kubectl',
        args,
        {
          env: { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: kubeconfig },
          timeout: options.timeoutMs ?? 60_000,
          maxBuffer: options.maxBuffer ?? 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({
            code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
            stdout,
            stderr,
          }),
      );
    });
}

/** Like {@link Kubectl} but resolving to stdout, and failing the test on a non-zero exit. */
export function kubectlOk(kubectl: Kubectl): (...args: string[]) => Promise<string> {
  return async (...args) => {
    const r = await kubectl(...args);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
}

/** Table output as rows of cells separated by two or more spaces (single spaces stay in a cell). */
export function rows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/));
}

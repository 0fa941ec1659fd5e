/** The real kubectl against a twin, with a private HOME so discovery caches never leak between tests. */
import { execFile } from 'node:child_process';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type Kubectl = (...args: string[]) => Promise<KubectlResult>;

export function kubectlWith(kubeconfig: string, home: string): Kubectl {
  return (...args) =>
    new Promise((resolve) => {
      execFile(
        'kubectl',
        args,
        {
          env: { PATH: process.env.PATH ?? '', HOME: home, KUBECONFIG: kubeconfig },
          timeout: 60_000,
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

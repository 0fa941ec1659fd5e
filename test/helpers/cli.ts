/**
 * The `proxy-migrate` program run in this process (no child process), with captured output and a
 * private state directory: what an operator's terminal sees, minus the terminal.
 */
import { main } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/types.js';
import type { RunState } from '../../src/core/run-state.js';
import { FileRunStore } from '../../src/adapters/run-store/file.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A Redis URL nothing answers at: the terminal then keeps run state in files, as documented. */
export const NO_REDIS = 'redis://127.0.0.1:1';

export function cliIn(stateDir: string, env: Record<string, string> = {}) {
  const run = async (...argv: string[]): Promise<CliResult> => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: { write: (s: string) => ((stdout += s), true) } as unknown as NodeJS.WritableStream,
      stderr: { write: (s: string) => ((stderr += s), true) } as unknown as NodeJS.WritableStream,
      env: {
        PATH: process.env.PATH,
        HOME: stateDir,
        REDIS_URL: NO_REDIS,
        PROXY_MIGRATE_STATE_DIR: stateDir,
        LOG_LEVEL: 'error',
        ...env,
      },
    };
    const code = await main(argv, io);
    return { code, stdout, stderr };
  };
  const runs = async (): Promise<RunState[]> => new FileRunStore(stateDir).list({ limit: 1_000 });
  return { run, runs };
}

/**
 * The bot as an operator runs it, `proxy-migrate bot` in its own process (BullMQ on Redis, Bolt
 * over HTTP), so the suite can kill -9 it like a node losing power and start it again with the
 * same environment and port, as a restarted pod would be.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ENTRY = join(import.meta.dirname, '../../src/main.ts');
const READY_MS = 60_000;

function alive(child: ChildProcess | undefined): boolean {
  return child !== undefined && child.exitCode === null && child.signalCode === null;
}

export class BotProcess {
  private child: ChildProcess | undefined;
  private output: string[] = [];
  starts = 0;
  kills = 0;

  constructor(
    private readonly env: Record<string, string>,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Running (a process killed by a signal has no exit code, only a signal code). */
  get up(): boolean {
    return alive(this.child);
  }

  /** The last lines the process wrote, for a failure's explanation. */
  tail(lines = 30): string {
    return this.output.slice(-lines).join('');
  }

  /** Starts the process and resolves once /readyz answers 200. */
  async start(): Promise<void> {
    if (this.up) return;
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', ENTRY, 'bot'],
      {
        env: { PATH: process.env.PATH ?? '', ...this.env, PORT: String(this.port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (chunk: Buffer) => {
      if (process.env['CRASH_SUITE_DEBUG'] !== undefined) process.stderr.write(chunk);
      this.output.push(chunk.toString());
      if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.child = child;
    this.starts += 1;
    const deadline = Date.now() + READY_MS;
    for (;;) {
      if (!alive(child))
        throw new Error(
          `the bot exited (${child.exitCode ?? child.signalCode}) while starting:\n${this.tail()}`,
        );
      const ready = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(1_000) })
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`the bot was not ready in 60 s:\n${this.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** kill -9: no handler runs, nothing is flushed, jobs and heartbeats are left as they were. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child === undefined || !alive(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.kills += 1;
  }

  /** A graceful stop at the end of the suite (SIGTERM, as Kubernetes sends). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined || !alive(child)) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

/**
 * A private redis-server for tests and suites that stop and restart Redis: its own random port
 * and temporary directory, so the Redis everyone shares (REDIS_URL, port 6379) is never touched.
 * Restarts keep the port and the directory, as a Redis pod restarted on its volume would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisAnswers } from '../../src/adapters/redis.js';
import { freePort } from './free-port.js';

export type Fsync = 'always' | 'everysec';

export interface RedisServerOptions {
  /** AOF persistence (what the README asks for); off: no persistence at all (no RDB either). */
  persistence?: { appendfsync: Fsync } | 'none';
  /** The redis-server binary; default `redis-server` on PATH. */
  binary?: string;
}

export interface PrivateRedis {
  url: string;
  port: number;
  dir: string;
  /** Whether the server process is running now. */
  running(): boolean;
  /** Stops the server: SIGTERM (Redis flushes the AOF and exits) or SIGKILL (a crash). */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing (a hung Redis, a partition). */
  freeze(): void;
  /** SIGCONT after `freeze`. */
  thaw(): void;
  /** Starts it again on the same port and directory; resolves when it answers PING. */
  start(): Promise<void>;
  /** Stops it for good and deletes its directory. */
  close(): Promise<void>;
}

const START_DEADLINE_MS = 10_000;
const STOP_DEADLINE_MS = 10_000;

function argsFor(port: number, dir: string, persistence: RedisServerOptions['persistence']) {
  const base = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    '--protected-mode',
    'no',
    '--loglevel',
    'warning',
  ];
  if (persistence === 'none') return [...base, '--appendonly', 'no'];
  return [...base, '--appendonly', 'yes', '--appendfsync', persistence?.appendfsync ?? 'always'];
}

export async function startPrivateRedis(options: RedisServerOptions = {}): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'pm-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let stderr = '';

  const start = async (): Promise<void> => {
    if (child !== undefined) throw new Error('redis-server is already running');
    stderr = '';
    const proc = spawn(options.binary ?? 'redis-server', argsFor(port, dir, options.persistence), {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A test that times out or a suite that exits early must not leave this server behind.
    const reap = (): void => {
      proc.kill('SIGKILL');
    };
    process.once('exit', reap);
    proc.once('exit', () => process.off('exit', reap));
    child = proc;
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        if (child === proc) child = undefined;
        resolve();
      }),
    );
    const deadline = Date.now() + START_DEADLINE_MS;
    while (!(await redisAnswers(url, 200))) {
      if (child !== proc) throw new Error(`redis-server exited at start: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${url}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL'): Promise<void> => {
    const proc = child;
    if (proc === undefined) return;
    proc.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      exited,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          proc.kill('SIGKILL');
          resolve();
        }, STOP_DEADLINE_MS);
      }),
    ]);
    clearTimeout(timer);
    await exited;
  };

  await start();
  return {
    url,
    port,
    dir,
    running: () => child !== undefined,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    start,
    stop,
    close: async () => {
      child?.kill('SIGCONT');
      await stop('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

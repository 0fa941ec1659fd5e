/**
 * Run states as files, for the terminal when Redis is unreachable: one JSON file per run in a
 * directory (default ~/.proxy-migrate/runs). Saves take a lock file (O_EXCL), compare the
 * version, write a temporary file and rename it over the old one, so a crash mid-write never
 * leaves half a state and two terminals cannot both move one run on.
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunState } from '../../core/run-state.js';
import { StaleRunError, type RunQuery, type RunStore } from '../../ports/run-store.js';
import { filterRuns } from './query.js';

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 5_000;
const safeId = /^[a-z0-9-]+$/;

/**
 * A lock file still empty after this long is a writer killed between creating it and writing
 * its pid (a live writer writes it at once): kill -9 at that instant left the run unsaveable
 * for the next 10 s, longer than a resumer waits.
 */
const EMPTY_LOCK_MS = 1_000;

/** Whether the process that wrote a lock file is gone (same host: pids are local). */
async function holderDead(lock: string, ageMs: number): Promise<boolean> {
  const text = await readFile(lock, 'utf8').catch(() => undefined);
  if (text === '') return ageMs > EMPTY_LOCK_MS;
  const pid = Number(text ?? '');
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class FileRunStore implements RunStore {
  readonly description: string;

  constructor(private readonly dir: string) {
    this.description = `files in ${dir}`;
  }

  private path(id: string): string {
    if (!safeId.test(id)) throw new Error(`not a run id: ${id}`);
    return join(this.dir, `${id}.json`);
  }

  private async withLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const lock = `${this.path(id)}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const handle = await open(lock, 'wx', 0o600);
        await handle.writeFile(String(process.pid));
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(lock).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        // A lock older than any save takes, or one whose writer is dead (kill -9 in the middle
        // of a save), is a crashed writer's: take it over.
        if (age > LOCK_STALE_MS || (await holderDead(lock, age))) await rm(lock, { force: true });
        else if (Date.now() > deadline)
          throw new Error(`run ${id} is locked by another process`, { cause: error });
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    try {
      return await work();
    } finally {
      await rm(lock, { force: true });
    }
  }

  private async read(id: string): Promise<RunState | undefined> {
    try {
      return JSON.parse(await readFile(this.path(id), 'utf8')) as RunState;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private async write(state: RunState): Promise<void> {
    const target = this.path(state.id);
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    await rename(temporary, target);
  }

  create(state: RunState): Promise<RunState> {
    return this.withLock(state.id, async () => {
      if ((await this.read(state.id)) !== undefined)
        throw new Error(`run ${state.id} exists already`);
      const saved = { ...state, version: 1 };
      await this.write(saved);
      return saved;
    });
  }

  get(id: string): Promise<RunState | undefined> {
    return this.read(id);
  }

  save(state: RunState): Promise<RunState> {
    return this.withLock(state.id, async () => {
      const stored = await this.read(state.id);
      if (stored?.version !== state.version) {
        throw new StaleRunError(state.id, state.version, stored?.version);
      }
      const saved = { ...state, version: state.version + 1 };
      await this.write(saved);
      return saved;
    });
  }

  async list(query: RunQuery = {}): Promise<RunState[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const ids = names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length));
    const states = await Promise.all(
      ids.filter((id) => safeId.test(id)).map((id) => this.read(id)),
    );
    return filterRuns(
      states.filter((s): s is RunState => s !== undefined),
      query,
    );
  }

  async beat(id: string, owner: string, ttlMs: number): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const until = Date.now() + ttlMs;
    await writeFile(`${this.path(id)}.owner`, JSON.stringify({ owner, until }), { mode: 0o600 });
  }

  async owner(id: string): Promise<string | undefined> {
    try {
      const held = JSON.parse(await readFile(`${this.path(id)}.owner`, 'utf8')) as {
        owner: string;
        until: number;
      };
      return held.until > Date.now() ? held.owner : undefined;
    } catch {
      return undefined;
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

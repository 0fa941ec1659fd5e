/**
 * Run states in this process's memory: the in-process demo without Redis. Same compare-and-set
 * rules as the durable stores; nothing survives the process, which the demo says.
 */
import type { RunState } from '../../core/run-state.js';
import { StaleRunError, type RunQuery, type RunStore } from '../../ports/run-store.js';
import { filterRuns } from './query.js';

export class MemoryRunStore implements RunStore {
  readonly description = 'memory (nothing survives this process)';
  private readonly runs = new Map<string, string>();
  private readonly owners = new Map<string, { owner: string; until: number }>();

  create(state: RunState): Promise<RunState> {
    if (this.runs.has(state.id)) return Promise.reject(new Error(`run ${state.id} exists already`));
    const saved = { ...state, version: 1 };
    this.runs.set(state.id, JSON.stringify(saved));
    return Promise.resolve(saved);
  }

  get(id: string): Promise<RunState | undefined> {
    const data = this.runs.get(id);
    return Promise.resolve(data === undefined ? undefined : (JSON.parse(data) as RunState));
  }

  save(state: RunState): Promise<RunState> {
    const data = this.runs.get(state.id);
    const stored = data === undefined ? undefined : (JSON.parse(data) as RunState).version;
    if (stored !== state.version) {
      return Promise.reject(new StaleRunError(state.id, state.version, stored));
    }
    const saved = { ...state, version: state.version + 1 };
    this.runs.set(state.id, JSON.stringify(saved));
    return Promise.resolve(saved);
  }

  list(query: RunQuery = {}): Promise<RunState[]> {
    const all = [...this.runs.values()].map((d) => JSON.parse(d) as RunState);
    return Promise.resolve(filterRuns(all, query));
  }

  beat(id: string, owner: string, ttlMs: number): Promise<void> {
    this.owners.set(id, { owner, until: Date.now() + ttlMs });
    return Promise.resolve();
  }

  owner(id: string): Promise<string | undefined> {
    const held = this.owners.get(id);
    return Promise.resolve(held !== undefined && held.until > Date.now() ? held.owner : undefined);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

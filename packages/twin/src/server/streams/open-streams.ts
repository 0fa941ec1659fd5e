// Long-lived responses the server holds open (watches, log follows, exec sessions): closing the
// twin ends them all, and the watch-drop fault sweeps the watches that outlived their period.

export type StreamKind = 'watch' | 'log' | 'exec';

export interface OpenStream {
  kind: StreamKind;
  /** As RequestInfo names it: `pods`, `pods/log`. */
  resource: string;
  /** Real (not simulated) epoch ms: watch drops model a transport fault, not cluster time. */
  openedAt: number;
  stop: () => void;
}

export class OpenStreams {
  private readonly open = new Set<OpenStream>();
  private timer: NodeJS.Timeout | undefined;

  /** `sweep` runs every `sweepMs` while streams are open, and may stop some of them. */
  constructor(
    private readonly sweep: (streams: readonly OpenStream[]) => void = () => undefined,
    private readonly sweepMs = 250,
  ) {}

  /** Tracks a stream until the returned function (or stopAll) is called. */
  add(kind: StreamKind, resource: string, stop: () => void): () => void {
    const entry: OpenStream = { kind, resource, openedAt: Date.now(), stop };
    this.open.add(entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep([...this.open]), this.sweepMs);
      // A forgotten server must not keep the process (or a test worker) alive.
      this.timer.unref();
    }
    return () => this.remove(entry);
  }

  get size(): number {
    return this.open.size;
  }

  /** Stops one stream now; it is forgotten first, so a later sweep cannot stop it twice. */
  drop(entry: OpenStream): void {
    if (!this.open.has(entry)) return;
    this.remove(entry);
    entry.stop();
  }

  stopAll(): void {
    for (const entry of [...this.open]) this.drop(entry);
  }

  private remove(entry: OpenStream): void {
    this.open.delete(entry);
    if (this.open.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

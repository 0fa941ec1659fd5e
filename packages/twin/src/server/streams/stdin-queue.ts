// Stdin of an exec session as an async iterable: WebSocket frames are pushed in as they arrive and
// a provider reads them at its own pace; end() (stdin closed, client gone) finishes the iteration.

export class StdinQueue implements AsyncIterable<Buffer> {
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private wake: (() => void) | undefined;

  push(chunk: Buffer): void {
    if (this.ended) return;
    this.chunks.push(Buffer.from(chunk));
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

/**
 * Gathers writes and hands them to `write` `size` at a time, without holding up whoever adds them (the reads go on
 * while a batch is written); drain() writes the rest and waits for every batch.
 */
export class WriteBatcher<T> {
  #pending: T[] = [];
  readonly #inFlight: Promise<void>[] = [];
  constructor(
    private readonly size: number,
    private readonly write: (batch: T[]) => Promise<void>,
  ) {}

  add(w: T): void {
    this.#pending.push(w);
    if (this.#pending.length >= this.size) this.#flush();
  }

  async drain(): Promise<void> {
    this.#flush();
    await Promise.all(this.#inFlight);
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    const batch = this.#pending;
    this.#pending = [];
    this.#inFlight.push(this.write(batch));
  }
}

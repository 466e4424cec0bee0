/**
 * What the memoir made of a text, kept by the text: least recently used out first, bounded by the total length of
 * the texts kept (what is kept grows with them: for 2 million characters of English prose, some 6 MB of names or
 * 26 MB of passages and their terms, besides the texts). Used for the names read in a text (./names.ts) and the
 * passages a search makes of it (./retrieval.ts): insights and a chat read every record of a memoir at each call, so
 * a cache holds whole memoirs rather than the last few texts.
 *
 * A call that had the texts it needs read in the reading thread holds them (`hold`) until it is done: a held text is
 * never put out, whatever the bound, so neither a memoir longer than the bound nor other accounts' calls in between
 * can make that call read them again in the main thread. Held texts can take the total past the bound for as long as
 * they are held; the bound applies again at their release.
 */
export class TextCache<V> {
  /** Kept and not held, least recently used first (a Map keeps insertion order; a hit is moved to the end). */
  readonly #kept = new Map<string, V>();
  /** Kept and held: out of the LRU order until let go, so putting texts out never walks past them. */
  readonly #pinned = new Map<string, V>();
  /** Texts in use, with how many holds each (kept or not yet). */
  readonly #held = new Map<string, number>();
  /** Total length of the texts kept, held or not. */
  #chars = 0;

  /** `maxChars`: the total length of the texts kept; a longer text is never kept. */
  constructor(public maxChars: number) {}

  /** A new bound, applied at once. */
  resize(maxChars: number): void {
    this.maxChars = maxChars;
    this.#trim(0);
  }

  /** What is kept for `text` (now the most recently used), or undefined. */
  get(text: string): V | undefined {
    const pinned = this.#pinned.get(text);
    if (pinned !== undefined) return pinned;
    const kept = this.#kept.get(text);
    if (kept !== undefined) {
      this.#kept.delete(text);
      this.#kept.set(text, kept);
    }
    return kept;
  }

  /** Keeps `value` for `text`, the least recently used out beyond the bound; a text kept already keeps its value. */
  set(text: string, value: V): void {
    if (text.length > this.maxChars || this.#has(text)) return;
    this.#chars += text.length;
    if (this.#held.has(text)) {
      this.#pinned.set(text, value);
      this.#trim(0);
    } else {
      this.#kept.set(text, value);
      this.#trim(1);
    }
  }

  /** What `make` makes of `text`, kept, or made now and kept. */
  remember(text: string, make: () => V): V {
    const kept = this.get(text);
    if (kept !== undefined) return kept;
    const made = make();
    this.set(text, made);
    return made;
  }

  /** The texts among `texts` that are not kept and could be, each once, in order (empty ones left out). */
  missing(texts: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const text of texts) if (text.length > 0 && text.length <= this.maxChars && !this.#has(text)) out.add(text);
    return [...out];
  }

  /**
   * Holds `texts` (kept now or kept later) until the function returned is called: they are not put out meanwhile.
   * Calling it again does nothing.
   */
  hold(texts: Iterable<string>): () => void {
    const list = [...new Set(texts)];
    for (const text of list) {
      const n = (this.#held.get(text) ?? 0) + 1;
      this.#held.set(text, n);
      const kept = n === 1 ? this.#kept.get(text) : undefined;
      if (kept !== undefined) {
        this.#kept.delete(text);
        this.#pinned.set(text, kept);
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const text of list) {
        const n = (this.#held.get(text) ?? 1) - 1;
        if (n > 0) {
          this.#held.set(text, n);
          continue;
        }
        this.#held.delete(text);
        const pinned = this.#pinned.get(text);
        if (pinned !== undefined) {
          // In use until now: back in the LRU order as the most recently used.
          this.#pinned.delete(text);
          this.#kept.set(text, pinned);
        }
      }
      this.#trim(0);
    };
  }

  /** How many texts are held (for tests: every call lets go of what it held). */
  get heldCount(): number {
    return this.#held.size;
  }

  /** Total length of the texts kept. */
  get chars(): number {
    return this.#chars;
  }

  #has(text: string): boolean {
    return this.#kept.has(text) || this.#pinned.has(text);
  }

  /** Puts out the least recently used texts not held until the total is within the bound, but the `spare` newest. */
  #trim(spare: number): void {
    while (this.#chars > this.maxChars && this.#kept.size > spare) {
      const oldest = this.#kept.keys().next().value!;
      this.#kept.delete(oldest);
      this.#chars -= oldest.length;
    }
  }
}

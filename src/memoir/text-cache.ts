/**
 * What the memoir made of a text, kept by the text: least recently used out first, bounded by the total length of
 * the texts kept (they are what costs the memory; what is kept for each is a fraction of it). Used for the names read
 * in a text (./names.ts) and the passages a search makes of it (./retrieval.ts): insights and a chat read every
 * record of a memoir at each call, so a cache holds whole memoirs rather than the last few texts.
 */
export class TextCache<V> {
  /** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
  readonly #kept = new Map<string, V>();
  #chars = 0;

  /** `maxChars`: the total length of the texts kept; a longer text is never kept. */
  constructor(readonly maxChars: number) {}

  /** What is kept for `text` (now the most recently used), or undefined. */
  get(text: string): V | undefined {
    const kept = this.#kept.get(text);
    if (kept !== undefined) {
      this.#kept.delete(text);
      this.#kept.set(text, kept);
    }
    return kept;
  }

  /** Keeps `value` for `text`, the least recently used out beyond the bound; a text kept already keeps its value. */
  set(text: string, value: V): void {
    if (text.length > this.maxChars || this.#kept.has(text)) return;
    this.#chars += text.length;
    while (this.#chars > this.maxChars) {
      const oldest = this.#kept.keys().next().value!;
      this.#kept.delete(oldest);
      this.#chars -= oldest.length;
    }
    this.#kept.set(text, value);
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
    for (const text of texts)
      if (text.length > 0 && text.length <= this.maxChars && !this.#kept.has(text)) out.add(text);
    return [...out];
  }
}

/**
 * Ordered sections of a generated contract, filled feature by feature.
 *
 * Each section (state, errors, functions...) lists its slots in the order the
 * printed source shows them; a feature adds its items to its own slot. The
 * printed order therefore follows the layout, not the order in which the
 * features ran, and the layout reads as the table of contents of the source.
 */
export class Sections<L extends Record<string, readonly string[]>, I extends { [K in keyof L]: unknown }> {
  private readonly filled = new Map<string, unknown[]>();

  constructor(private readonly layout: L) {
    for (const [section, slots] of Object.entries(layout)) {
      for (const slot of slots) this.filled.set(`${section}/${slot}`, []);
    }
  }

  /** Appends items to one slot of a section. */
  add<K extends keyof L & string>(section: K, slot: L[K][number], ...items: I[K][]): void {
    const list = this.filled.get(`${section}/${slot}`);
    if (!list) throw new Error(`no slot ${slot} in section ${section}`);
    list.push(...items);
  }

  /** Every item of a section, slot by slot in layout order. */
  list<K extends keyof L & string>(section: K): I[K][] {
    return this.layout[section]!.flatMap((slot) => this.filled.get(`${section}/${slot}`)! as I[K][]);
  }
}

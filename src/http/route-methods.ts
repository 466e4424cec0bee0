/**
 * The methods each route of the server answers, to tell a request with a method a path does not take (405, with
 * `Allow` naming those it takes) from a request for a path that does not exist (404). Fastify answers both with its
 * not-found handler; this table is filled from its `onRoute` hook.
 *
 * A route's path is matched segment by segment as Fastify's router does for the patterns this service uses: a
 * literal, a parameter (`:id`, any non-empty segment) or a trailing wildcard (`*`, the rest of the path). Written
 * here rather than taken from Fastify's router (find-my-way), which it does not expose for lookups across methods.
 */

type Segment = string | { param: true } | { rest: true };

interface Route {
  segments: Segment[];
  methods: Set<string>;
}

const split = (path: string): string[] => path.split('/').filter((s) => s.length > 0);

function compile(url: string): Segment[] {
  return split(url).map((s) => (s === '*' ? { rest: true } : s.startsWith(':') ? { param: true } : s));
}

function matches(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (typeof s === 'object' && 'rest' in s) return true;
    const part = parts[i];
    if (part === undefined) return false;
    if (typeof s === 'string' && s !== part) return false;
  }
  return parts.length === segments.length;
}

export class RouteMethods {
  readonly #routes = new Map<string, Route>();

  /** Records that `url` (a route pattern) answers `method` (Fastify's onRoute gives one or several). */
  add(url: string, method: string | readonly string[]): void {
    let route = this.#routes.get(url);
    if (!route) {
      route = { segments: compile(url), methods: new Set() };
      this.#routes.set(url, route);
    }
    for (const m of typeof method === 'string' ? [method] : method) route.methods.add(m.toUpperCase());
  }

  /** The methods some route answers at `path` (no query string), sorted; empty when no route has that path. */
  allowed(path: string): string[] {
    let parts: string[];
    try {
      parts = split(path).map((p) => decodeURIComponent(p));
    } catch {
      return [];
    }
    const out = new Set<string>();
    for (const route of this.#routes.values())
      if (matches(route.segments, parts)) for (const m of route.methods) out.add(m);
    return [...out].sort();
  }
}

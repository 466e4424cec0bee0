import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { englishStopWords } from '../core/stopwords.js';

/**
 * The service's own documentation: the Markdown files of docs-index/ plus one
 * generated page per tool, split into sections at headings and indexed with
 * MiniSearch (BM25 ranking, prefix and fuzzy matching) once, at the first
 * search (the pages themselves are read at start).
 */

export interface DocSection {
  /** `<slug>#<anchor>` */
  id: string;
  slug: string;
  anchor: string;
  docTitle: string;
  heading: string;
  text: string;
}

export interface DocPage {
  slug: string;
  title: string;
  markdown: string;
  sections: DocSection[];
}

export interface SearchHit {
  slug: string;
  docTitle: string;
  heading: string;
  snippet: string;
  link: string;
  resource: string;
  score: number;
}

export const DEFAULT_DOCS_DIR = path.resolve(import.meta.dirname, '..', '..', 'docs-index');

/** GitHub-style anchor of a heading. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[`*_~]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/ /g, '-');
}

function splitSections(slug: string, markdown: string): { title: string; sections: DocSection[] } {
  const lines = markdown.split('\n');
  let title = slug;
  const sections: DocSection[] = [];
  let heading = '';
  let buf: string[] = [];
  let inFence = false;
  const flush = () => {
    const text = buf.join('\n').trim();
    if (text || heading) {
      const anchor = heading ? anchorOf(heading) : '';
      sections.push({ id: `${slug}#${anchor}`, slug, anchor, docTitle: title, heading: heading || title, text });
    }
    buf = [];
  };
  for (const line of lines) {
    if (line.startsWith('```')) inFence = !inFence;
    const m = !inFence && /^(#{1,3})\s+(.*)$/.exec(line);
    if (m) {
      if (m[1] === '#' && title === slug) {
        title = m[2]!.trim();
        heading = '';
        continue;
      }
      flush();
      heading = m[2]!.trim();
    } else {
      buf.push(line);
    }
  }
  flush();
  for (const s of sections) s.docTitle = title;
  return { title, sections };
}

/**
 * What a tool page shows of a tool definition (tools/define.ts). Stated here, structurally, so that the docs index
 * does not import the tool layer above it; every registered tool satisfies it.
 */
export interface DocumentedTool {
  name: string;
  title: string;
  description: string;
  scope: string | null;
  tiers?: readonly string[] | undefined;
  bucket: string;
  annotations: { readOnlyHint?: boolean | undefined };
  rest: { method: string; path: string };
}

/** One generated page per tool, so the reference can never drift from the registry. */
function toolPage(tool: DocumentedTool): string {
  const access = `${tool.scope === null ? 'any valid key' : `the \`${tool.scope}\` scope`}${tool.tiers ? `, ${tool.tiers.join(' or ')} tier` : ''}`;
  return [
    '# Tool reference',
    '',
    `## ${tool.title}`,
    `\`${tool.name}\`: ${tool.description}`,
    '',
    `MCP tool \`${tool.name}\`; REST \`${tool.rest.method} /api/v1${tool.rest.path}\`. Needs ${access}. ` +
      `${tool.annotations.readOnlyHint ? 'Read-only.' : 'Changes state.'} Rate bucket: ${tool.bucket === 'default' ? 'all requests' : tool.bucket}.`,
  ].join('\n');
}

/** Lower-cased, stop words dropped, Porter-stemmed: "Rotating" and "rotate" meet as "rotat". */
function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (englishStopWords().has(t)) return null;
  return /^[a-z]+$/.test(t) && t.length > 3 ? stemmer(t) : t;
}

export class DocsIndex {
  readonly pages = new Map<string, DocPage>();
  #index: MiniSearch<DocSection> | undefined;
  readonly #sections = new Map<string, DocSection>();

  constructor(files: Array<{ slug: string; markdown: string }>) {
    for (const f of files) {
      const { title, sections } = splitSections(f.slug, f.markdown);
      this.pages.set(f.slug, { slug: f.slug, title, markdown: f.markdown, sections });
      for (const s of sections) this.#sections.set(s.id, s);
    }
  }

  /** The search index, built on first use (MiniSearch is loaded then, synchronously: `search` is synchronous). */
  get #search(): MiniSearch<DocSection> {
    if (this.#index) return this.#index;
    const MiniSearchClass = createRequire(import.meta.url)('minisearch') as typeof MiniSearch;
    const index = new MiniSearchClass<DocSection>({
      fields: ['docTitle', 'heading', 'text'],
      storeFields: ['id'],
      processTerm,
      searchOptions: {
        processTerm,
        boost: { heading: 3, docTitle: 1.5 },
        prefix: (term: string) => term.length >= 4,
        fuzzy: (term: string) => (term.length >= 6 ? 0.2 : 0),
        combineWith: 'OR',
      },
    });
    index.addAll([...this.#sections.values()]);
    this.#index = index;
    return index;
  }

  static load(tools: readonly DocumentedTool[], dir: string = DEFAULT_DOCS_DIR): DocsIndex {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => ({ slug: f.slice(0, -3), markdown: readFileSync(path.join(dir, f), 'utf8') }));
    for (const tool of tools) files.push({ slug: `tool-${tool.name.replace(/_/g, '-')}`, markdown: toolPage(tool) });
    return new DocsIndex(files);
  }

  search(query: string, limit = 5): SearchHit[] {
    const results = this.#search.search(query);
    const terms = results[0]?.terms ?? [];
    return results.slice(0, limit).map((r) => {
      const s = this.#sections.get(r.id as string)!;
      return {
        slug: s.slug,
        docTitle: s.docTitle,
        heading: s.heading,
        snippet: snippet(s.text, r.terms.length ? r.terms : terms),
        link: `/api/v1/docs/${s.slug}${s.anchor ? `#${s.anchor}` : ''}`,
        resource: `svc://docs/${s.slug}`,
        score: Math.round(r.score * 1000) / 1000,
      };
    });
  }
}

/** About 240 characters of the section around the first matched term, on one line. */
function snippet(text: string, terms: string[]): string {
  const flat = text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, at < 0 ? 0 : at - 80);
  const end = Math.min(flat.length, start + 240);
  return (start > 0 ? '…' : '') + flat.slice(start, end) + (end < flat.length ? '…' : '');
}

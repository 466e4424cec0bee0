import { describe, expect, it } from 'vitest';
import { anchorOf, DocsIndex } from '../../src/docs/search.js';
import { TOOLS } from '../../src/tools/index.js';

const docs = DocsIndex.load(TOOLS);

// Typical questions, and the page (and section) that must come first; where two
// sections answer the question equally well, either may.
const QUESTIONS: Array<[string, string, string?]> = [
  ['how do I rotate an API key', 'authentication|tool-create-api-key', 'Rotating a key|Create an API key'],
  ['restrict a key to my office IP address', 'authentication', 'IP whitelists'],
  ['X-Forwarded-For behind a reverse proxy', 'authentication', 'IP whitelists'],
  ['what does INSUFFICIENT_SCOPE mean', 'errors|authentication'],
  ['429 too many requests retry after', 'limits|errors'],
  ['how many contract generations per 15 minutes for public tier', 'limits'],
  ['do rate limit counters survive a restart', 'limits', 'Restarts and several instances'],
  ['nextCursor hasMore cursor pagination', 'pagination', 'Cursor pagination'],
  ['pagination with page and limit', 'pagination', 'Offset pagination'],
  ['where is the first API key printed', 'quick-start|authentication', 'Quick start|Key values'],
  ['connect claude or an IDE assistant over MCP stdio', 'quick-start', 'Connect an IDE assistant over MCP'],
  ['forced heirship reserved portion children', 'templates', 'civil-law — forced heirship'],
  ['bequest more than one third', 'templates', 'islamic-wasiyyah — bequest of up to one third'],
  ['percentages two decimals basis points', 'templates|faraid'],
  ['request id header', 'errors', 'Request ids'],
  ['body too large 413', 'errors|limits|vaults'],
  ['revoke a key', 'tool-revoke-api-key'],
  ['X-CSRF-Token header for the session cookie', 'accounts', 'CSRF tokens'],
  [
    'create a separate account for a customer',
    'accounts|tool-create-account',
    'Creating a customer account|Create a customer account',
  ],
  ['suspend a customer account', 'accounts|tool-suspend-account', 'Suspending an account|Suspend an account'],
  ['list my api keys', 'tool-list-api-keys'],
  ['which scopes exist', 'authentication', 'Scopes'],
  ['partner tier webhooks embedding', 'authentication', 'Tiers'],
  ['estimate gas for a TON contract', 'contracts|tool-estimate-gas', 'Estimating gas and fees|Estimate gas and fees'],
  ['how do I verify a webhook signature', 'webhooks', 'Verifying signatures'],
  ['what is awl when shares exceed the estate', 'faraid'],
  ['which US states have community property', 'jurisdictions'],
  ['solana anchor build commands', 'contracts', 'Solana (Anchor)'],
];

describe('search_docs ranking', () => {
  it.each(QUESTIONS)('"%s" → %s', (q, slug, heading) => {
    const [top] = docs.search(q, 3);
    expect(slug.split('|')).toContain(top?.slug);
    if (heading) expect(heading.split('|')).toContain(top?.heading);
    expect(top!.link).toMatch(new RegExp(`^/api/v1/docs/${top!.slug}`));
    expect(top!.snippet.length).toBeGreaterThan(20);
  });

  it('indexes every docs-index page and one page per tool', () => {
    for (const slug of ['authentication', 'limits', 'errors', 'pagination', 'quick-start', 'templates'])
      expect(docs.pages.has(slug)).toBe(true);
    for (const tool of TOOLS) expect(docs.pages.has(`tool-${tool.name.replace(/_/g, '-')}`)).toBe(true);
  });

  it('makes GitHub-style anchors', () => {
    expect(anchorOf('Restarts and several instances')).toBe('restarts-and-several-instances');
    expect(anchorOf('civil-law — forced heirship')).toBe('civil-law--forced-heirship');
  });

  it('returns nothing for nonsense', () => {
    expect(docs.search('qqqzzzxxyy')).toEqual([]);
  });
});

import type { TestServer } from '../helpers.js';

/**
 * A known-good input for every tool: each must succeed over REST and MCP with
 * the same output. A new tool must add one (a test checks), which also keeps the
 * access matrix and the harness honest about what "valid" means.
 * `fresh` makes inputs that can be used only once (e.g. revoking a key).
 */
export interface Example {
  input: (server: TestServer, ownerKey: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Outputs that legitimately differ per call (ids, key values, timestamps) are compared without these fields. */
  volatile?: string[];
}

async function ownKeyId(server: TestServer, ownerKey: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${ownerKey}` },
    payload: { name: 'example', scopes: ['contracts:read'], tier: 'public' },
  });
  return res.json().data.id;
}

export const EXAMPLES: Record<string, Example> = {
  list_templates: { input: () => ({}) },
  get_jurisdiction: { input: () => ({ id: 'California' }) },
  list_jurisdictions: { input: () => ({ region: 'europe', forcedHeirship: true, page: 1, limit: 5 }) },
  check_plan: {
    input: () => ({
      jurisdiction: 'fr',
      template: 'civil-law',
      beneficiaries: [
        { name: 'Anne', percentage: 30, relationship: 'daughter' },
        { name: 'Paul', percentage: 30, relationship: 'son' },
        { name: 'A friend', percentage: 40, relationship: 'friend' },
      ],
    }),
  },
  calculate_inheritance: {
    input: () => ({ heirs: { wife: 1, son: 2, daughter: 1, mother: 1 }, estate: { total: '120000', debts: '20000', bequests: '10000' } }),
  },
  create_api_key: {
    input: () => ({ name: 'example', scopes: ['contracts:read'], tier: 'public' }),
    volatile: ['id', 'key', 'displayPrefix', 'createdAt'],
  },
  list_api_keys: { input: () => ({ page: 1, limit: 100 }), volatile: ['items', 'pagination'] },
  get_api_key: { input: async (s, k) => ({ id: await ownKeyId(s, k) }), volatile: ['id', 'displayPrefix', 'createdAt'] },
  update_api_key: { input: async (s, k) => ({ id: await ownKeyId(s, k), name: 'renamed', ipWhitelist: ['127.0.0.1'] }), volatile: ['id', 'displayPrefix', 'createdAt'] },
  revoke_api_key: { input: async (s, k) => ({ id: await ownKeyId(s, k) }), volatile: ['id', 'displayPrefix', 'createdAt', 'revokedAt'] },
  search_docs: { input: () => ({ q: 'rotate a key', limit: 3 }) },
  get_doc: { input: () => ({ slug: 'authentication' }) },
};

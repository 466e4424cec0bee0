import { ApiError } from '../core/errors.js';
import { TEMPLATES } from '../law/templates.js';
import type { Services } from '../tools/define.js';

/**
 * MCP resources and prompts, as transport-free definitions. The MCP adapter
 * (src/mcp/server.ts) lists, reads and completes them; access needs a valid key
 * with `contracts:read`, checked there like any tool call.
 */

export interface ResourceEntry {
  uri: string;
  name: string;
  title: string;
  description?: string;
}

export interface ResourceTemplateDef {
  /** RFC 6570 template with one variable, e.g. `svc://docs/{slug}`. */
  uriTemplate: string;
  variable: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  list(services: Services): ResourceEntry[];
  /** The resource's text; NOT_FOUND when the variable names nothing. */
  read(services: Services, value: string): string;
}

const templatesResource: ResourceTemplateDef = {
  uriTemplate: 'svc://templates/{type}',
  variable: 'type',
  name: 'template',
  title: 'Inheritance template',
  description:
    'One inheritance template (common-law, civil-law, islamic-mirth, islamic-wasiyyah, custom): what it means and what is checked.',
  mimeType: 'application/json',
  list: () =>
    TEMPLATES.map((t) => ({
      uri: `svc://templates/${t.type}`,
      name: t.type,
      title: t.name,
      description: t.description,
    })),
  read: (_s, value) => {
    const t = TEMPLATES.find((x) => x.type === value);
    if (!t)
      throw new ApiError('NOT_FOUND', `No template "${value}"`, [
        { field: 'type', reason: `one of ${TEMPLATES.map((x) => x.type).join(', ')}` },
      ]);
    return JSON.stringify(t, null, 2);
  },
};

const docsResource: ResourceTemplateDef = {
  uriTemplate: 'svc://docs/{slug}',
  variable: 'slug',
  name: 'doc',
  title: 'Documentation page',
  description: "A page of svc's documentation, as Markdown (search them with search_docs).",
  mimeType: 'text/markdown',
  list: (s) => [...s.docs.pages.values()].map((p) => ({ uri: `svc://docs/${p.slug}`, name: p.slug, title: p.title })),
  read: (s, value) => {
    const page = s.docs.pages.get(value);
    if (!page)
      throw new ApiError('NOT_FOUND', `No documentation page "${value}"`, [
        { field: 'slug', reason: 'see resources/list' },
      ]);
    return page.markdown;
  },
};

const jurisdictionsResource: ResourceTemplateDef = {
  uriTemplate: 'svc://jurisdictions/{id}',
  variable: 'id',
  name: 'jurisdiction',
  title: 'Jurisdiction',
  description:
    'Inheritance law of one jurisdiction (forced heirship, spouse rights, community property, Islamic law, formalities, tax, sources).',
  mimeType: 'application/json',
  list: (s) => s.jurisdictions.all().map((j) => ({ uri: `svc://jurisdictions/${j.id}`, name: j.id, title: j.name })),
  read: (s, value) => JSON.stringify(s.jurisdictions.resolve(value), null, 2),
};

/** Every resource template, in listing order. */
export const RESOURCE_TEMPLATES: readonly ResourceTemplateDef[] = [
  jurisdictionsResource,
  templatesResource,
  docsResource,
];

/** The template and variable value a URI names, or undefined (also for a value with broken percent-encoding). */
export function matchResource(uri: string): { def: ResourceTemplateDef; value: string } | undefined {
  for (const def of RESOURCE_TEMPLATES) {
    const prefix = def.uriTemplate.slice(0, def.uriTemplate.indexOf('{'));
    if (uri.startsWith(prefix)) {
      let value: string;
      try {
        value = decodeURIComponent(uri.slice(prefix.length));
      } catch {
        return undefined;
      }
      if (value && !value.includes('/')) return { def, value };
    }
  }
  return undefined;
}

/** Completion of a resource template's variable: entries whose name starts with the prefix (case-insensitive). */
export function completeResource(services: Services, uriTemplate: string, prefix: string): string[] {
  const def = RESOURCE_TEMPLATES.find((r) => r.uriTemplate === uriTemplate);
  if (!def) return [];
  const p = prefix.toLowerCase();
  return def
    .list(services)
    .map((e) => e.name)
    .filter((n) => n.toLowerCase().startsWith(p));
}

export interface PromptArgumentDef {
  name: string;
  description: string;
  required: boolean;
  complete?: (services: Services, prefix: string) => string[];
}

export interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgumentDef[];
  render(args: Record<string, string | undefined>): string;
}

export const PLAN_INHERITANCE: PromptDef = {
  name: 'plan_inheritance',
  title: 'Plan an inheritance and generate its contract',
  description:
    "Walks you through gathering the owner, heirs, jurisdiction, chain and dead man's switch settings, checks the plan against the law, " +
    'and ends by generating the contract.',
  arguments: [
    {
      name: 'jurisdiction',
      description: 'Where the owner lives or is domiciled (id or name, e.g. us-ca, France).',
      required: false,
      complete: (s, prefix) => completeResource(s, 'svc://jurisdictions/{id}', prefix),
    },
    {
      name: 'blockchain',
      description: 'evm, solana or ton.',
      required: false,
      complete: (_s, prefix) => ['evm', 'solana', 'ton'].filter((c) => c.startsWith(prefix.toLowerCase())),
    },
    {
      name: 'template',
      description: 'Inheritance template, if already chosen.',
      required: false,
      complete: (_s, prefix) => TEMPLATES.map((t) => t.type).filter((t) => t.startsWith(prefix.toLowerCase())),
    },
  ],
  render: (args) => {
    const known = [
      args.jurisdiction ? `- Jurisdiction: ${args.jurisdiction}` : undefined,
      args.blockchain ? `- Chain: ${args.blockchain}` : undefined,
      args.template ? `- Template: ${args.template}` : undefined,
    ].filter(Boolean);
    return [
      'Help me plan my inheritance and create the smart contract that carries it out, using the svc tools. Work step by step and ask me for anything missing, one topic at a time:',
      '',
      known.length ? `Already decided:\n${known.join('\n')}\n` : '',
      '1. Jurisdiction: where I live or am domiciled. Look it up with get_jurisdiction (list_jurisdictions to browse) and tell me in two sentences what its law means for my plan (forced heirship, spouse rights, community property, where Islamic law applies).',
      '2. Template: suggest one with list_templates and explain why (common-law, civil-law, islamic-mirth, islamic-wasiyyah or custom).',
      '3. Heirs and beneficiaries: their names, wallet addresses and relationship to me. For islamic-mirth compute the shares with calculate_inheritance and use its per-person percentages; otherwise ask for percentages (two decimals at most, summing to exactly 100).',
      '4. Check the plan with check_plan for the jurisdiction and template; explain every finding and fix the errors before going on.',
      '5. Chain: evm, solana or ton, and my owner address on it. Ask whether tokens or NFTs should be included (assets).',
      "6. Dead man's switch: whether inactivity should release the estate, the check-in interval in days (365 by default), an optional grace period, and optional guardians (m of n) who can confirm or veto.",
      '7. Estimate the costs with estimate_gas, then generate the contract with generate_contract. Show me the contract info, the measured gas or fees, and every analysis warning, and tell me how to deploy and how to check in.',
      '',
      'Never invent addresses or shares; ask. Remind me that this is not legal advice and that a lawyer in my jurisdiction should review the plan.',
    ]
      .filter((l) => l !== '')
      .join('\n');
  },
};

export const PROMPTS: PromptDef[] = [PLAN_INHERITANCE];

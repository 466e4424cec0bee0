// Layer rules for src/, checked by `npm run lint` (see docs/architecture.md for what each layer is for).
//
// Bottom up; a file may import its own layer and any layer below it, never one above:
//   core       src/core, src/types, src/version.ts    pure helpers: clock, ids, errors, config, ip, logging
//   store      src/store                               the store port (port.ts) and its adapters (lowdb, postgres)
//   events     src/events                              the outbox every domain writes its events to
//   domains    law, contracts, keys, accounts, ...     the business rules, one folder each (DOMAINS below)
//   access     src/access                              admission: who is calling, may they, at what rate and price
//   tools      src/tools, src/resources                the tool registry (one declarative file per tool), MCP resources
//   transports src/mcp, src/http                       MCP and REST servers over the same tools
//   entry      src/*.ts (app, cli, admin, ...)         wiring and command line
//
// Domains see the store only through its port: `store/port.ts` states the contract and is the only store file a
// domain (or events, access, tools) may import. Choosing an adapter is the job of `store/index.ts`, imported by the
// entry files and transports.
//
// A domain imports another domain only through a file listed in SIBLINGS below (its "interface"); every other
// domain-to-domain import is an error. The list is what the code needs; add to it deliberately, never to make a
// cycle (the `no-circular` rule stops those anyway).

const DOMAINS = [
  'law',
  'contracts',
  'keys',
  'accounts',
  'webhooks',
  'credits',
  'memoir',
  'embed',
  'docs',
  'chains',
  'watch',
  'mail',
  'vaults',
];

// Each layer as a path regex, bottom up.
const LAYERS = [
  { name: 'core', path: '^src/(core|types)/|^src/version\\.ts$' },
  { name: 'store', path: '^src/store/' },
  // Named exception: the outbox writes its events inside the account-scoped transaction, and that wrapper
  // (accounts/tenancy.ts) lives in accounts although it imports only the store port.
  { name: 'events', path: '^src/events/', except: '^src/accounts/tenancy\\.ts$' },
  { name: 'domains', path: `^src/(${DOMAINS.join('|')})/` },
  { name: 'access', path: '^src/access/' },
  // MCP resources are served beside the tools and, like them, read the shared services.
  { name: 'tools', path: '^src/(tools|resources)/' },
  { name: 'transports', path: '^src/(mcp|http)/' },
  { name: 'entry', path: '^src/(?!version\\.ts$)[^/]+\\.(ts|mts|mjs|js)$' },
];

// Allowed domain-to-domain imports: from a domain folder to the named files of another.
const SIBLINGS = {
  // the chain watcher reads the deployment records (and their switch snapshots) it follows, the stored contract's ABI,
  // and the chain; it writes its events in the account's view, and opens the memoir plans a deployment watches
  // through the memoir's own verification (and marks them watched when the deployment is verified). It finds a plan's
  // deployment by the contract address in its canonical form (contracts/validate).
  watch: [
    'contracts/(deployments|stored|register-deployment|validate)',
    'chains/(evm|ton|ton-readers)',
    'accounts/tenancy',
    'memoir/(heir-plans|verification|reminders)',
  ],
  // accounts is the lowest domain of the pair: it imports no other domain, and keys builds on it.
  accounts: [],
  // the guardian/heir contract engine applies the inheritance-law checks and templates.
  // ...and reads a chain (chains/readers) to verify a registered deployment.
  contracts: ['law/[^/]+', 'law/faraid/[^/]+', 'chains/(evm|readers|ton|ton-readers)'],
  // credits bill accounts and keep their ledger in the account's tenancy.
  credits: ['accounts/(records|tenancy)'],
  // the embeddable wizard authenticates with keys and their origins, posts callbacks through the webhook guard and
  // signs them, and renders plans from the law templates.
  embed: [
    'accounts/(principal|scopes|tenancy)',
    'contracts/plan',
    'law/templates',
    'keys/(keys|origins)',
    'webhooks/(guard|targets|secrets|signature)',
  ],
  // a key belongs to an account: keys creates an account with its first key, and reads its scopes, tier and status;
  // a reset of a user's password revokes the keys that user's sessions made, and the notice of a new password counts
  // the account's keys that keep working with keys' own rule (both registered in accounts/password-hooks).
  keys: ['accounts/(accounts|password-hooks|principal|records|scopes|tenancy)'],
  // mail preferences are account data, declared with the account views.
  mail: ['accounts/tenancy'],
  // memoirs are shared through grants, charged in credits, checked against heirs, photos fetched via the guard;
  // a sign of life of the owner (accounts/liveness) stops a verification before a memoir opens to heirs;
  // owners and heirs are mailed at confirmed addresses (accounts/email-flows) with single-use links (email-tokens),
  // the users read from their collection (accounts/records: the names of the accounts' collections);
  // deleting a plan unlinks the vaults linked to it in the same write (vaults/records: the collection, no logic).
  memoir: [
    'accounts/(email-flows|email-tokens|grants|liveness|principal|quota|records|tenancy)',
    'contracts/(plan|validate)',
    'credits/(catalogue|spend)',
    'webhooks/guard',
    'vaults/records',
  ],
  // vaults open through the memoir's plans and their shares (grants), count files in the storage quota, and match
  // heirs by each chain's canonical address.
  vaults: ['accounts/(grants|quota|tenancy)', 'memoir/heir-plans', 'contracts/validate'],
};

const LAYER_RULES = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.name}-imports-upward`,
  comment: `${layer.name} may import only its own layer and the layers below it.`,
  severity: 'error',
  from: { path: layer.path },
  to: {
    path: LAYERS.slice(i + 1)
      .map((l) => `(${l.path})`)
      .join('|'),
    ...(layer.except ? { pathNot: layer.except } : {}),
  },
}));

const SIBLING_RULES = DOMAINS.map((d) => {
  const allowed = (SIBLINGS[d] ?? []).map((t) => `^src/${t}\\.(ts|mts|mjs|js)$`);
  return {
    name: `domain-${d}-imports-sibling`,
    comment: `${d} may import another domain only through the files listed for it in SIBLINGS.`,
    severity: 'error',
    from: { path: `^src/${d}/` },
    to: {
      path: `^src/(${DOMAINS.filter((o) => o !== d).join('|')})/`,
      ...(allowed.length > 0 ? { pathNot: allowed } : {}),
    },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...LAYER_RULES,
    ...SIBLING_RULES,
    {
      name: 'store-only-through-port',
      comment: 'Below the entry files and transports, the store is seen only through store/port.ts.',
      severity: 'error',
      from: { path: `^src/(events|access|tools|resources)/|^src/(${DOMAINS.join('|')})/` },
      to: { path: '^src/store/', pathNot: '^src/store/port\\.ts$' },
    },
    {
      name: 'src-imports-no-scripts-or-tests',
      comment: 'The service never imports build scripts, benchmarks or tests.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|test|bench)/' },
    },
    {
      name: 'framework-only-in-transports',
      comment: 'Fastify is imported only under src/http and the MCP SDK only under src/mcp (and entry files).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(http|mcp)/|^src/(?!version\\.ts$)[^/]+\\.ts$' },
      to: { path: '(^|/)node_modules/(fastify|@fastify/[^/]+|fastify-type-provider-zod|@modelcontextprotocol/sdk)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or an installed package.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    {
      name: 'packages-from-package-json',
      comment:
        'The service imports only packages its package.json lists (a package present only because another brought ' +
        'it, or a development tool, may be missing or another version where the package is installed).',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'no-dev-dependencies-at-run-time',
      comment:
        'What the service runs is installed with it: a development dependency serves types at most. The one ' +
        'exception is tsx, loaded by src/core/worker-host.mjs only for a TypeScript task module (the sources run ' +
        'in development); the installed package runs compiled JavaScript.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: '(^|/)node_modules/tsx/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a layer that needs another's types depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};

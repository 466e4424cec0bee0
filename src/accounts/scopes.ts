/** Scopes a key or session may hold. `X` includes `X:read`; `all` includes everything and is for internal keys only. */
export const SCOPES = [
  'contracts',
  'contracts:read',
  'vaults',
  'vaults:read',
  'users',
  'users:read',
  'payments',
  'webhooks',
  'legal',
  'chat',
  'embed',
  'all',
] as const;

export type Scope = (typeof SCOPES)[number];

export const TIERS = ['public', 'partner', 'internal'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * Each tier's share of the worker pools (compiles, sandbox runs) while accounts compete for them: an account is
 * served this many jobs for each one of a public account's.
 */
export const QUEUE_WEIGHT: Record<Tier, number> = { public: 1, partner: 2, internal: 4 };

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Whether a key holding `granted` may use an operation needing `required`. */
export function hasScope(granted: readonly string[], required: Scope): boolean {
  if (granted.includes('all') || granted.includes(required)) return true;
  if (required.endsWith(':read')) return granted.includes(required.slice(0, -':read'.length));
  return false;
}

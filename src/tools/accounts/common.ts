import type { Store } from '../../store/port.js';
import type { ToolContext } from '../define.js';
import type { AccountDeps } from '../../accounts/accounts.js';
import type { Tier } from '../../accounts/scopes.js';

/** Account management is the operator's: internal keys (scope `users`, which `all` includes). */
export const OPERATOR_TIERS: readonly Tier[] = ['internal'];

/** What every account tool declares: the operator's tier, the raw store, the default bucket. */
export const OPERATOR_TOOL = { domain: 'accounts', tiers: OPERATOR_TIERS, crossAccount: true, bucket: 'default' } as const;

/** The cross-account store handed to tools that declare `crossAccount`. */
export function accountDeps(ctx: ToolContext): AccountDeps {
  const system: Store | undefined = ctx.system;
  if (!system) throw new Error('account tools must declare crossAccount');
  return { system, clock: ctx.clock };
}

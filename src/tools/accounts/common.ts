import type { Store } from '../../store/port.js';
import type { ToolContext } from '../define.js';
import type { AccountDeps } from '../../accounts/accounts.js';
import type { Tier } from '../../keys/scopes.js';

/** Account management is the operator's: internal keys (scope `users`, which `all` includes). */
export const OPERATOR_TIERS: readonly Tier[] = ['internal'];

/** The cross-account store handed to tools that declare `crossAccount`. */
export function accountDeps(ctx: ToolContext): AccountDeps {
  const system: Store | undefined = ctx.system;
  if (!system) throw new Error('account tools must declare crossAccount');
  return { system, clock: ctx.clock };
}

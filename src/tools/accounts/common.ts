import type { Store } from '../../store/port.js';
import type { ToolContext } from '../define.js';
import type { AccountDeps } from '../../accounts/accounts.js';

/** The cross-account store handed to tools that declare `crossAccount`. */
export function accountDeps(ctx: ToolContext): AccountDeps {
  const system: Store | undefined = ctx.system;
  if (!system) throw new Error('account tools must declare crossAccount');
  return { system, clock: ctx.clock };
}

import type { CreditDeps } from '../../credits/autoreload.js';
import type { RestMapping, ToolContext } from '../define.js';

/** The credit routes are the user's: a session (and its CSRF token on writes), REST only, at both memoir mounts. */
export const SESSION_CREDIT_TOOL = { domain: 'credits', scope: null, principals: ['session'], mcp: false, bucket: 'default' } as const;

/** `/api/v1/svcloom/credits/<sub>`, also served at `/api/svcloom/credits/<sub>` (DECISIONS.md, Mounting). */
export function creditRoute(method: RestMapping['method'], sub: string, rest: Partial<RestMapping> = {}): RestMapping {
  return { method, path: `/svcloom/credits/${sub}`, aliases: [`/api/svcloom/credits/${sub}`], shape: 'data', ...rest };
}

export function creditDeps(ctx: ToolContext): CreditDeps {
  return { store: ctx.store, clock: ctx.clock, config: ctx.config, log: ctx.log };
}

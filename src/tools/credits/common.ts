import type { CreditDeps } from '../../credits/autoreload.js';
import type { RestMapping, ToolContext } from '../define.js';

/** `/api/v1/svcloom/credits/<sub>`, also served at `/api/svcloom/credits/<sub>` (the legacy memoir mount). */
export function creditRoute(method: RestMapping['method'], sub: string, rest: Partial<RestMapping> = {}): RestMapping {
  return { method, path: `/svcloom/credits/${sub}`, aliases: [`/api/svcloom/credits/${sub}`], shape: 'data', ...rest };
}

export function creditDeps(ctx: ToolContext): CreditDeps {
  return { store: ctx.store, clock: ctx.clock, config: ctx.config, log: ctx.log };
}

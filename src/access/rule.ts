import type { Principal } from '../accounts/principal.js';
import type { Scope, Tier } from '../accounts/scopes.js';

/** How a caller may authenticate (`embed`: a wizard token from POST /embed/sessions, src/embed/). */
export type PrincipalKind = Principal['kind'];

/** Credentials accepted when an operation names none: API keys only. */
export const KEY_ONLY: readonly PrincipalKind[] = ['key'];

/**
 * What admission reads of an operation: whether it needs a credential, which kinds it accepts, the scope and tiers
 * it needs, and the rate bucket it counts in besides the all-requests one. Every tool definition is one.
 */
export interface AccessRule {
  /** `none`: no credential needed (register, login): counted per client address. */
  auth?: 'none';
  /** Credentials accepted (default: API keys only). */
  principals?: readonly PrincipalKind[];
  /** Scope the caller needs; null when any valid credential may call (tiers still apply). */
  scope: Scope | null;
  /** Tiers allowed to call; every tier when omitted. */
  tiers?: readonly Tier[];
  /** Bucket counted on top of the all-requests bucket (`default`: none). */
  bucket: 'default' | 'generation' | 'chat';
}

import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { TemplateType } from '../../law/templates.js';

/** Program features that change the program's shape. */
export const SOLANA_FEATURES = ['deadMansSwitch', 'multiSig', 'splTokens'] as const;
export type SolanaFeature = (typeof SOLANA_FEATURES)[number];

export interface SolanaShape {
  template: TemplateType;
  deadMansSwitch: boolean;
  multiSig: boolean;
  splTokens: boolean;
}

export function shapeFeatures(s: SolanaShape): SolanaFeature[] {
  return SOLANA_FEATURES.filter((f) => s[f]);
}

/**
 * A placeholder program id, derived from the shape so it is stable: a valid
 * 32-byte base58 key with no known private key. `anchor keys sync` replaces it
 * with the id of the keypair `anchor build` creates.
 */
export function placeholderProgramId(s: SolanaShape): string {
  const digest = createHash('sha256')
    .update(`svc-inheritance/${s.template}/${shapeFeatures(s).join('+')}`)
    .digest();
  return bs58.encode(digest);
}

import { z } from 'zod';

/** A jurisdiction named in tool input: an id or a name (resolved by src/law/jurisdictions.ts), trimmed, 1 to 100 characters. */
export function jurisdictionName() {
  return z.string().trim().min(1).max(100);
}

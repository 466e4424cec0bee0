import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when the module at `metaUrl` is the script being run (`npx tsx bench/x.ts`). */
export function isMain(metaUrl: string): boolean {
  return Boolean(process.argv[1]) && path.resolve(process.argv[1]!) === fileURLToPath(metaUrl);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function fmt(n: number, digits = 2): string {
  return n.toFixed(digits);
}

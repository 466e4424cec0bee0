/**
 * Password hashing (argon2id, OWASP's parameters) and the places it runs in. @node-rs/argon2 runs each on libuv's thread
 * pool (four threads unless UV_THREADPOOL_SIZE says otherwise), the pool every store's file writes use too: enough
 * sign-in attempts at once, from as many addresses as an attacker has, would take every thread for tens of
 * milliseconds each and hold the service's writes behind them. At most half the pool's threads hash at once; callers
 * beyond that wait their turn fairly by account or, signed out, by address (src/core/fair-slots.ts), and are told
 * SERVICE_BUSY when the wait would be too long. An address may have 32 waiting (more than the 30 failed sign-ins it
 * may spend in a window, so an office behind one address signing in at once is not turned away).
 */
import { FairSlots } from '../core/fair-slots.js';

/** libuv's thread pool size as this process has it (UV_THREADPOOL_SIZE is read once, when the pool starts). */
function threadPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 1024) : 4;
}

export const passwordWork = new FairSlots({
  name: 'The password checks',
  size: Math.max(1, Math.floor(threadPoolSize() / 2)),
  maxQueue: 32,
  maxWaitMs: 10_000,
  typicalMs: 40,
  noun: ['password check', 'password checks'],
});

/** OWASP Password Storage Cheat Sheet, argon2id: m=19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Checks a password against its stored hash (a seam: tests count the checks). */
export type PasswordVerifier = (hash: string, password: string) => Promise<boolean>;

/** Hashes a new password (a seam: tests count the hashes, to see that both paths of register do the same work). */
export type PasswordHasher = (password: string) => Promise<string>;

/** Argon2 loads with the first password; each hash and check holds a place of passwordWork. */
export const argonHash = async (password: string, options: typeof ARGON2_OPTIONS): Promise<string> =>
  passwordWork.run(undefined, async () => (await import('@node-rs/argon2')).hash(password, options));
export const argonVerifier: PasswordVerifier = async (hash, password) =>
  passwordWork.run(undefined, async () => (await import('@node-rs/argon2')).verify(hash, password).catch(() => false));

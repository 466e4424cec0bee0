/**
 * What a change of password does to things other domains keep, registered by those domains when they load (the keys
 * domain, which builds on this one: src/keys/keys.ts and src/keys/manage.ts). Apart from src/accounts/email-flows.ts,
 * which runs them, so that registering pulls in nothing heavy: the keys modules are part of `svc mcp`'s first lists
 * (their schemas), which load only cheap modules.
 */
import type { Clock } from '../core/clock.js';
import type { Tx } from '../store/port.js';

/**
 * Counts an account's API keys that work (neither revoked nor expired). The keys domain, which builds on this one,
 * registers it when it loads (src/keys/keys.ts).
 */
export type WorkingKeyCount = (tx: Tx, accountId: string, now: Date) => Promise<number>;
let workingKeys: WorkingKeyCount | undefined;

/** Registers how the password-change notice counts the account's working API keys (at module load). */
export function countWorkingKeysWith(count: WorkingKeyCount): void {
  workingKeys = count;
}

/** The account's working API keys, for the notice of a new password; undefined where no domain counts them. */
export function countWorkingKeys(tx: Tx, accountId: string, now: Date): Promise<number> | undefined {
  return workingKeys?.(tx, accountId, now);
}

/**
 * What else ends when a user's password is reset from a mailed link, run in the reset's transaction: the owner of the
 * address takes the account back, and whoever held the old password (someone who registered the address without
 * reading its mail, and kept a session while its owner confirmed it) must keep nothing it made with it. Domains that
 * keep such credentials register here (the API keys a user's session made: src/keys/manage.ts).
 */
export type PasswordResetListener = (tx: Tx, user: { id: string; ownerId: string }, clock: Clock) => Promise<void>;

const resetListeners: PasswordResetListener[] = [];

/** Registers what a password reset also ends (at module load, like collection declarations). */
export function onPasswordReset(listener: PasswordResetListener): void {
  if (!resetListeners.includes(listener)) resetListeners.push(listener);
}

/** Runs what a password reset also ends, in the reset's transaction. */
export async function endWithReset(tx: Tx, user: { id: string; ownerId: string }, clock: Clock): Promise<void> {
  for (const listener of resetListeners) await listener(tx, user, clock);
}

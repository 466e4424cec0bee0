/**
 * Signs of life of an account's owner: a sign-in, or any call made with one of the account's keys or sessions.
 * Admission (src/access/admit.ts) and sign-in report them here; what must stop when the owner shows they are alive
 * (a verification of a reported death that would open a memoir to heirs, src/memoir/heirs.ts) registers a listener.
 *
 * A listener runs at most once per credential every LIFE_SIGN_INTERVAL_MS in this process, so a busy key costs one
 * store lookup per interval, not one per call. When a verification starts, `forgetSignsOfLife(accountId)` clears the
 * account's entries here, so the owner's next call is seen at once; another instance sees it within the interval.
 */
import type { Logger } from '../core/log.js';
import type { Store } from '../store/port.js';
import type { Principal } from './principal.js';

/** How a sign of life was given. */
/** `check-in`: the owner opened a check-in link mailed to them. */
export type LifeSignKind = 'key' | 'session' | 'sign-in' | 'check-in';

export interface LifeSign {
  accountId: string;
  /**
   * The credential that gave it: `key:<keyId>` or `session:<sessionId>` (one signed-in browser or device: the owner
   * using the service on another one than the session that reported a trigger is a sign of life), `sign-in:<userId>`
   * for a sign-in (the password proven afresh), or `mail:<userId>` for a mailed check-in link (proof of reading the
   * owner's mail). Neither of the last two is ever a reporter's credential.
   */
  credential: string;
  kind: LifeSignKind;
  at: Date;
}

export type LifeSignListener = (store: Store, sign: LifeSign) => Promise<void>;

export const LIFE_SIGN_INTERVAL_MS = 30_000;
const MAX_REMEMBERED = 10_000;

const listeners: LifeSignListener[] = [];
/**
 * accountId -> credential -> when a sign of life of it was last passed to the listeners (ms). Two maps rather than
 * one keyed by the two joined: every authenticated call looks here, and a joined key is a new string to hash each
 * time, where the account's id is the same string from call to call.
 */
const lastPassed = new Map<string, Map<string, number>>();
let remembered = 0;

/** Registers what to do on a sign of life (at module load, like collection declarations). */
export function onSignOfLife(listener: LifeSignListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/**
 * The credentials of frozen principals (a cached key's, shared by every call with the key): every admitted call
 * names its credential, and making the string afresh made a new string to hash for each lookup in `lastPassed`.
 */
const credentials = new WeakMap<object, string>();

/** The credential a principal acts with, as a sign of life and a reporter record name it; undefined for embed tokens. */
export function credentialOf(principal: Pick<Principal, 'kind' | 'keyId' | 'userId'>): string | undefined {
  const known = credentials.get(principal);
  if (known !== undefined) return known;
  const made =
    principal.kind === 'key'
      ? `key:${principal.keyId}`
      : principal.kind === 'session' && principal.userId
        ? `session:${principal.keyId}`
        : undefined;
  if (made !== undefined && Object.isFrozen(principal)) credentials.set(principal, made);
  return made;
}

/** Makes the next sign of life of this account pass to the listeners at once (a verification just started). */
export function forgetSignsOfLife(accountId: string): void {
  const credentials = lastPassed.get(accountId);
  if (!credentials) return;
  remembered -= credentials.size;
  lastPassed.delete(accountId);
}

/**
 * Whether a sign of life of this credential at `now` (ms) would be passed to the listeners: someone listens, and the
 * credential gave none within the interval. Admission asks first, so the usual call builds no sign at all.
 */
export function signOfLifeDue(accountId: string, credential: string, now: number): boolean {
  if (listeners.length === 0 || !accountId) return false;
  const last = lastPassed.get(accountId)?.get(credential);
  return last === undefined || now - last >= LIFE_SIGN_INTERVAL_MS || now < last;
}

/**
 * Passes a sign of life to the listeners unless the same credential gave one within the interval. With a logger, a
 * failure is logged (without the account or credential) and the call it came with goes on; without one, it throws.
 * Undefined when nothing is passed on (the usual call): nothing to wait for.
 */
export function signOfLife(store: Store, sign: LifeSign, log?: Pick<Logger, 'warn'>): Promise<void> | undefined {
  const now = sign.at.getTime();
  if (!signOfLifeDue(sign.accountId, sign.credential, now)) return undefined;
  let credentials = lastPassed.get(sign.accountId);
  if (remembered >= MAX_REMEMBERED) {
    lastPassed.clear();
    remembered = 0;
    credentials = undefined;
  }
  if (!credentials) lastPassed.set(sign.accountId, (credentials = new Map()));
  if (!credentials.has(sign.credential)) remembered++;
  credentials.set(sign.credential, now);
  return passOn(store, sign, log);
}

async function passOn(store: Store, sign: LifeSign, log?: Pick<Logger, 'warn'>): Promise<void> {
  try {
    for (const listener of listeners) await listener(store, sign);
  } catch (err) {
    const credentials = lastPassed.get(sign.accountId);
    if (credentials?.delete(sign.credential)) remembered--;
    if (!log) throw err;
    log.warn({ err: (err as Error).name }, 'a sign of life could not be recorded');
  }
}

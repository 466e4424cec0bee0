import { describe, expect, it } from 'vitest';
import {
  forgetSignsOfLife,
  LIFE_SIGN_INTERVAL_MS,
  onSignOfLife,
  signOfLife,
  signOfLifeDue,
  type LifeSign,
} from '../../src/accounts/liveness.js';
import type { Logger } from '../../src/core/log.js';
import type { Store } from '../../src/store/port.js';
import '../../src/memoir/verification.js';

// A listener of its own, answering only for this file's store. The listeners are module-wide and the files of the
// group share modules, so the memoir's listener runs too: it is loaded here whatever ran before, and it finds
// nothing waiting in this store.
const store = { findBy: async () => [] } as unknown as Store;
const passed: LifeSign[] = [];
onSignOfLife(async (s, sign) => {
  if (s !== store) return;
  if (sign.credential === 'key:fails') throw new Error('the store is away');
  passed.push(sign);
});

const T0 = Date.parse('2026-11-29T12:00:00Z');
const sign = (accountId: string, credential: string, at: number): LifeSign => ({
  accountId,
  credential,
  kind: 'key',
  at: new Date(at),
});
const account = () => `own_liveness_${Math.random().toString(36).slice(2)}`;

describe('signs of life', () => {
  it('pass once per credential and interval, each credential on its own', async () => {
    const a = account();
    passed.length = 0;
    await signOfLife(store, sign(a, 'key:1', T0));
    expect(signOfLife(store, sign(a, 'key:1', T0 + 1_000))).toBeUndefined();
    await signOfLife(store, sign(a, 'key:2', T0 + 1_000));
    expect(signOfLife(store, sign(a, 'key:1', T0 + LIFE_SIGN_INTERVAL_MS - 1))).toBeUndefined();
    await signOfLife(store, sign(a, 'key:1', T0 + LIFE_SIGN_INTERVAL_MS));
    expect(passed.map((s) => [s.credential, s.at.getTime() - T0])).toEqual([
      ['key:1', 0],
      ['key:2', 1_000],
      ['key:1', LIFE_SIGN_INTERVAL_MS],
    ]);
  });

  it('are due exactly when they would be passed on: admission asks before it makes one', async () => {
    const a = account();
    expect(signOfLifeDue(a, 'key:1', T0)).toBe(true);
    await signOfLife(store, sign(a, 'key:1', T0));
    expect(signOfLifeDue(a, 'key:1', T0 + 1)).toBe(false);
    expect(signOfLifeDue(a, 'key:1', T0 + LIFE_SIGN_INTERVAL_MS - 1)).toBe(false);
    expect(signOfLifeDue(a, 'key:1', T0 + LIFE_SIGN_INTERVAL_MS)).toBe(true);
    expect(signOfLifeDue(a, 'key:2', T0 + 1)).toBe(true);
    // A clock moved back is not within the interval.
    expect(signOfLifeDue(a, 'key:1', T0 - 1)).toBe(true);
    expect(signOfLifeDue('', 'key:1', T0)).toBe(false);
  });

  it('pass at once again once the account is forgotten, and only that account', async () => {
    const a = account();
    const b = account();
    passed.length = 0;
    await signOfLife(store, sign(a, 'key:1', T0));
    await signOfLife(store, sign(b, 'key:1', T0));
    forgetSignsOfLife(a);
    await signOfLife(store, sign(a, 'key:1', T0 + 1));
    expect(signOfLife(store, sign(b, 'key:1', T0 + 1))).toBeUndefined();
    expect(passed.map((s) => [s.accountId, s.at.getTime() - T0])).toEqual([
      [a, 0],
      [b, 0],
      [a, 1],
    ]);
  });

  it('pass again when the clock went back, and after a listener failed', async () => {
    const a = account();
    passed.length = 0;
    await signOfLife(store, sign(a, 'key:1', T0));
    await signOfLife(store, sign(a, 'key:1', T0 - 5_000));
    expect(passed).toHaveLength(2);
    // A failure is logged without the account or credential, and the next call tries again.
    const warned: unknown[] = [];
    const log = {
      warn: ((obj: unknown, msg?: string) => {
        warned.push([obj, msg]);
      }) as Pick<Logger, 'warn'>['warn'],
    };
    await signOfLife(store, sign(a, 'key:fails', T0), log);
    expect(warned).toEqual([[{ err: 'Error' }, 'a sign of life could not be recorded']]);
    await signOfLife(store, sign(a, 'key:fails', T0 + 1), log);
    expect(warned).toHaveLength(2);
    // Without a logger the failure reaches the caller.
    await expect(signOfLife(store, sign(a, 'key:fails', T0 + 2))).rejects.toThrow('the store is away');
  });

  it('answer nothing to wait for without an account', () => {
    expect(signOfLife(store, sign('', 'key:1', T0))).toBeUndefined();
  });
});

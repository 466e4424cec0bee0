import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import type { CreditDeps } from '../../src/credits/autoreload.js';
import { addEntry, grantCredits } from '../../src/credits/ledger.js';
import { debitCredits, refundDebit, withCredits } from '../../src/credits/spend.js';
import { accountStore } from '../../src/accounts/tenancy.js';
import { catalogueOf } from '../../src/credits/catalogue.js';
import { startCreditsHarness, type CreditsHarness } from './harness.js';

// The ledger on the embedded store, through the domain functions.

let h: CreditsHarness;
let deps: CreditDeps;

beforeAll(async () => {
  h = await startCreditsHarness();
  deps = {
    store: h.server.services.store,
    clock: h.clock,
    config: h.server.services.config,
    log: h.server.services.log,
  };
});
afterAll(async () => {
  await h?.close();
});

const grant = (accountId: string, amount: number, key = `g:${Math.random()}`) =>
  addEntry(deps.store, h.clock, accountId, {
    kind: 'grant',
    amount,
    idempotencyKey: key,
    reference: { type: 'operator', id: 'test' },
    reason: 'test',
  });
const debit = (accountId: string, credits: number, key: string) =>
  debitCredits(deps, accountId, {
    credits,
    idempotencyKey: key,
    reference: { type: 'chat_message', id: key },
    action: 'chat_message',
  });

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? err.code : String(err);
  }
}

describe('credit ledger', () => {
  it('100 concurrent debits of 1 against a balance of 50: exactly 50 succeed and the balance ends at 0', async () => {
    const account = await h.server.account();
    await grant(account, 50);
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => debit(account, 1, `d${i}`)));
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(ok).toHaveLength(50);
    expect(refused).toHaveLength(50);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ApiError);
      expect(r.reason.code).toBe('INSUFFICIENT_CREDITS');
      expect(r.reason.status).toBe(402);
      expect(r.reason.details[0]).toMatchObject({ required: 1, available: 0 });
      // Payments are configured here, so the refusal points to the purchase route.
      expect(r.reason.message).toMatch(/Buy a pack \(POST \/api\/v1\/svcloom\/credits\/purchase\)/);
      expect(r.reason.message).toMatch(/^This needs 1 credit and the wallet holds 0\. /);
    }
    expect((await h.wallet(account))!.balance).toBe(0);
    expect(await h.checkBalance(account)).toBe(0);
    const entries = await h.entries(account);
    expect(entries.filter((e) => e.kind === 'debit')).toHaveLength(50);
    // The ledger is in order and every entry's balanceAfter follows from the one before.
    let running = 0;
    entries.forEach((e, i) => {
      expect(e.seq).toBe(i + 1);
      running += e.amount;
      expect(e.balanceAfter).toBe(running);
    });
  });

  it('a repeated idempotency key returns the first entry and never writes a second one', async () => {
    const account = await h.server.account();
    await grant(account, 10);
    const [a, b, c] = await Promise.all([
      debit(account, 3, 'same'),
      debit(account, 3, 'same'),
      debit(account, 3, 'same'),
    ]);
    expect(new Set([a.entry.id, b.entry.id, c.entry.id]).size).toBe(1);
    expect([a, b, c].filter((r) => !r.replayed)).toHaveLength(1);
    expect(await h.checkBalance(account)).toBe(7);
    // A replay is answered even when the balance could no longer pay for it.
    await debit(account, 7, 'rest');
    expect((await debit(account, 3, 'same')).replayed).toBe(true);
    expect(await h.checkBalance(account)).toBe(0);
  });

  it('a debit that does not fit charges nothing and reports required and available', async () => {
    const account = await h.server.account();
    await grant(account, 4);
    const before = await h.entries(account);
    await expect(debit(account, 5, 'big')).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      message: expect.stringMatching(/^This needs 5 credits and the wallet holds 4\. /),
      details: [{ required: 5, available: 4 }],
    });
    expect(await h.entries(account)).toEqual(before);
    expect(await h.checkBalance(account)).toBe(4);
  });

  it('withCredits: a failed action is refunded by a new entry, the debit stays as written', async () => {
    const account = await h.server.account();
    await grant(account, 10);
    const ctx = { ...deps, store: accountStore(deps.store, account), principal: { ownerId: account } };
    const price = catalogueOf(h.server.services.config).prices.voice;
    await expect(
      withCredits(ctx, 'voice', 3, { type: 'voice_clip', id: 'v1' }, async () =>
        Promise.reject(new Error('synthesis failed')),
      ),
    ).rejects.toThrow('synthesis failed');
    const afterFailure = await h.entries(account);
    expect(afterFailure.map((e) => [e.kind, e.amount])).toEqual([
      ['grant', 10],
      ['debit', -3 * price],
      ['refund', 3 * price],
    ]);
    expect(afterFailure[2]!.reference).toEqual({ type: 'voice_clip', id: 'v1' });
    expect(await withCredits(ctx, 'voice', 3, { type: 'voice_clip', id: 'v2' }, async () => 'spoken')).toBe('spoken');
    expect(await h.checkBalance(account)).toBe(10 - 3 * price);
    // Not enough credits: the action does not run at all.
    let ran = false;
    await expect(
      withCredits(ctx, 'voice', 1000, { type: 'voice_clip', id: 'v3' }, async () => (ran = true)),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(ran).toBe(false);
  });

  it('refunding the same debit twice gives the credits back once', async () => {
    const account = await h.server.account();
    await grant(account, 5);
    const { entry } = await debit(account, 5, 'r1');
    const [r1, r2] = await Promise.all([refundDebit(deps, entry, 'failed'), refundDebit(deps, entry, 'failed')]);
    expect(r1.id).toBe(r2.id);
    expect(await h.checkBalance(account)).toBe(5);
  });

  it('an operator grant needs an existing account and cannot take the balance below zero', async () => {
    const account = await h.server.account();
    await expect(
      grantCredits(deps.store, h.clock, { id: 'acct_nobody', amount: 5, reason: 'x' }, 'key_test'),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const g = await grantCredits(
      deps.store,
      h.clock,
      { id: account, amount: 5, reason: 'welcome', idempotencyKey: 'welcome' },
      'key_test',
    );
    expect(g).toMatchObject({
      balance: 5,
      replayed: false,
      entry: { kind: 'grant', amount: 5, reason: 'welcome', reference: { type: 'operator', id: 'key_test' } },
    });
    expect(
      (
        await grantCredits(
          deps.store,
          h.clock,
          { id: account, amount: 5, reason: 'welcome', idempotencyKey: 'welcome' },
          'key_test',
        )
      ).replayed,
    ).toBe(true);
    // The same key for another amount or reason is refused, and changes nothing.
    for (const other of [
      { amount: 50, reason: 'welcome' },
      { amount: 5, reason: 'another reason' },
    ])
      await expect(
        grantCredits(deps.store, h.clock, { id: account, ...other, idempotencyKey: 'welcome' }, 'key_test'),
      ).rejects.toMatchObject({ code: 'CONFLICT', details: [{ field: 'idempotencyKey' }] });
    await expect(
      grantCredits(deps.store, h.clock, { id: account, amount: -6, reason: 'too much' }, 'key_test'),
    ).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: [{ required: 6, available: 5 }],
    });
    expect(
      (await grantCredits(deps.store, h.clock, { id: account, amount: -5, reason: 'clawback' }, 'key_test')).balance,
    ).toBe(0);
    expect(await h.checkBalance(account)).toBe(0);
  });

  it('the wallet balance always equals the sum of the ledger, and is never negative (random concurrent operations)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('grant' as const), n: fc.integer({ min: 1, max: 20 }) }),
            fc.record({ op: fc.constant('debit' as const), n: fc.integer({ min: 1, max: 15 }) }),
          ),
          {
            minLength: 1,
            maxLength: 25,
          },
        ),
        async (ops) => {
          const account = await h.server.account();
          await Promise.allSettled(
            ops.map((o, i) => (o.op === 'grant' ? grant(account, o.n, `p${i}`) : debit(account, o.n, `p${i}`))),
          );
          const balance = await h.checkBalance(account);
          expect(balance).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('keeps accounts apart: a debit in one account never touches another', async () => {
    const a = await h.server.account();
    const b = await h.server.account();
    await grant(a, 3);
    await expect(code(debit(b, 1, 'x'))).resolves.toBe('INSUFFICIENT_CREDITS');
    expect(await h.checkBalance(a)).toBe(3);
    expect(await h.entries(b)).toEqual([]);
  });
});

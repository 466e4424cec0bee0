import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_INDEXES } from '../../src/app.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { settleReloads } from '../../src/credits/autoreload.js';
import { addEntry, inAccount, ledgerSum, loadWalletInTx, saveWalletInTx } from '../../src/credits/ledger.js';
import { CREDIT_RELOADS, CREDIT_WALLETS, type ReloadRecord, type WalletRecord } from '../../src/credits/records.js';
import { debitCredits } from '../../src/credits/spend.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/port.js';
import { randomSchema, testDatabaseUrl } from '../support/engines.js';

// The same ledger guarantees on PostgreSQL, where serializable transactions really run concurrently and are
// retried on conflicts: the debit and the reload reservation must stay correct when run more than once.

let url: string;
let store: Store;
const schema = randomSchema('svc_credits');
const config = loadConfig({}, {});
const deps = () => ({ store, clock: systemClock, config, log: createLogger('silent') });

beforeAll(async () => {
  url = await testDatabaseUrl();
  store = await openPostgresStore({ url, schema, indexes: STORE_INDEXES });
});
afterAll(async () => {
  await settleReloads();
  await store?.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

const debit = (accountId: string, credits: number, key: string) =>
  debitCredits(deps(), accountId, {
    credits,
    idempotencyKey: key,
    reference: { type: 'chat_message', id: key },
    action: 'chat_message',
  });

describe('credit ledger on PostgreSQL', () => {
  it('100 concurrent debits of 1 against a balance of 50: exactly 50 succeed, the balance ends at 0', async () => {
    const account = 'acct_pg_concurrent';
    await addEntry(store, systemClock, account, {
      kind: 'grant',
      amount: 50,
      idempotencyKey: 'seed',
      reference: { type: 'operator', id: 't' },
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => debit(account, 1, `d${i}`)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(50);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.map((r) => r.reason.code)).toEqual(Array(50).fill('INSUFFICIENT_CREDITS'));
    expect((await store.get<WalletRecord>(CREDIT_WALLETS, account))!.balance).toBe(0);
    expect(await ledgerSum(store, account)).toBe(0);
  });

  it('20 concurrent debits crossing the threshold reserve exactly one reload', async () => {
    const account = 'acct_pg_reload';
    await addEntry(store, systemClock, account, {
      kind: 'grant',
      amount: 100,
      idempotencyKey: 'seed',
      reference: { type: 'operator', id: 't' },
    });
    await inAccount(store, account, async (tx) => {
      const now = new Date();
      const wallet = await loadWalletInTx(tx, account, now);
      wallet.stripeCustomerId = 'cus_test';
      wallet.paymentMethodId = 'pm_test';
      Object.assign(wallet.autoReload, { enabled: true, packType: 'starter', thresholds: [20], maxMonthlySpend: 5000 });
      await saveWalletInTx(tx, wallet, now);
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => debit(account, 5, `r${i}`)));
    expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
    await settleReloads();
    const reloads = await store.findBy<ReloadRecord>(CREDIT_RELOADS, 'ownerId', account);
    // One reservation; without Stripe configured it is recorded as failed, releasing its share of the monthly cap.
    expect(reloads).toHaveLength(1);
    expect(reloads[0]).toMatchObject({ status: 'failed' });
    const wallet = await store.get<WalletRecord>(CREDIT_WALLETS, account);
    expect(wallet!.autoReload).toMatchObject({ inFlight: null, consecutiveFailures: 1, monthSpend: 0 });
    expect(wallet!.balance).toBe(0);
    expect(await ledgerSum(store, account)).toBe(0);
  });
});

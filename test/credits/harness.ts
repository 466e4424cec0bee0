/**
 * A service with credits wired to the Stripe stand-in, a clock tests move by
 * hand, and shortcuts to read what the store holds (wallet, ledger, events).
 */
import type Stripe from 'stripe';
import type { Config } from '../../src/core/config.js';
import type { Logger } from '../../src/core/log.js';
import { DEFAULT_CATALOGUE, type Catalogue } from '../../src/credits/catalogue.js';
import { ledgerSum } from '../../src/credits/ledger.js';
import { CREDIT_ENTRIES, CREDIT_WALLETS, type LedgerEntry, type WalletRecord } from '../../src/credits/records.js';
import { settleReloads } from '../../src/credits/autoreload.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { STRIPE_WEBHOOK_PATH } from '../../src/http/stripe-webhook.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import {
  STANDIN_SECRET_KEY,
  STANDIN_WEBHOOK_SECRET,
  startStripeStandin,
  type StripeStandin,
} from '../support/stripe-standin.js';

/** The webhook endpoint's envelope, as the tests read it: `data` on success, `error` on a refusal. */
export interface WebhookAnswer {
  success: boolean;
  data?: { handled: boolean; note?: string };
  error?: { code: string };
}

export interface CreditsHarness {
  server: TestServer;
  standin: StripeStandin;
  clock: FakeClock;
  webhookUrl: string;
  user(): Promise<TestSession>;
  /** POST /api/v1/svcloom/credits/purchase as the user; resolves with the envelope's data (throws on an error status). */
  buy(
    session: TestSession,
    packType?: string,
  ): Promise<{ checkoutSessionId: string; purchaseId: string; credits: number; url: string }>;
  /** Buys a pack and has Stripe complete it (delivered once): the account holds the pack's credits and a saved card. */
  buyAndPay(
    session: TestSession,
    packType?: string,
  ): Promise<{ checkoutSessionId: string; paymentIntentId: string; completed: Stripe.Event }>;
  /** Delivers a Stripe event to the webhook endpoint, signed at the service clock's time. */
  deliver(
    event: Stripe.Event,
    opts?: { secret?: string; timestamp?: number; signature?: string | null; body?: string },
  ): Promise<{ status: number; json: WebhookAnswer }>;
  wallet(accountId: string): Promise<WalletRecord | undefined>;
  entries(accountId: string): Promise<LedgerEntry[]>;
  events(accountId: string, type?: string): Promise<EventRecord[]>;
  /** Throws unless the wallet's balance equals the sum of its ledger. */
  checkBalance(accountId: string): Promise<number>;
  close(): Promise<void>;
}

export async function startCreditsHarness(
  opts: {
    payments?: boolean;
    catalogue?: Partial<Catalogue>;
    config?: Partial<Config>;
    log?: Logger;
    secretKey?: string;
  } = {},
): Promise<CreditsHarness> {
  const standin = await startStripeStandin();
  const clock = new FakeClock(Date.now());
  const payments =
    opts.payments === false
      ? { stripeSecretKey: undefined, stripeWebhookSecret: undefined, stripeApiBase: undefined, returnHosts: [] }
      : {
          stripeSecretKey: opts.secretKey ?? STANDIN_SECRET_KEY,
          stripeWebhookSecret: STANDIN_WEBHOOK_SECRET,
          stripeApiBase: standin.url,
          returnHosts: [],
        };
  const server = await startTestServer({
    clock,
    config: { payments, creditsCatalogue: JSON.stringify({ ...DEFAULT_CATALOGUE, ...opts.catalogue }), ...opts.config },
    ...(opts.log ? { log: opts.log } : {}),
  });
  const webhookUrl = server.url + STRIPE_WEBHOOK_PATH;
  const h: CreditsHarness = {
    server,
    standin,
    clock,
    webhookUrl,
    user: () => registerUser(server.app),
    async buy(session, packType = 'starter') {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/credits/purchase',
        headers: sessionHeaders(session),
        payload: {
          packType,
          successUrl: 'https://app.example/ok?cs={CHECKOUT_SESSION_ID}',
          cancelUrl: 'https://app.example/cancel',
        },
      });
      if (res.statusCode !== 201) throw new Error(`purchase answered ${res.statusCode}: ${res.body}`);
      return res.json().data;
    },
    async buyAndPay(session, packType = 'starter') {
      const { checkoutSessionId } = await h.buy(session, packType);
      const completed = standin.completeCheckout(checkoutSessionId);
      const res = await h.deliver(completed);
      if (res.status !== 200) throw new Error(`completion answered ${res.status}: ${JSON.stringify(res.json)}`);
      return { checkoutSessionId, paymentIntentId: standin.sessions.get(checkoutSessionId)!.payment_intent, completed };
    },
    deliver: (event, o = {}) =>
      standin.deliver(webhookUrl, event, { timestamp: Math.floor(clock.ms / 1000), ...o }) as Promise<{
        status: number;
        json: WebhookAnswer;
      }>,
    wallet: (accountId) => server.services.store.get<WalletRecord>(CREDIT_WALLETS, accountId),
    async entries(accountId) {
      const all = await server.services.store.findBy<LedgerEntry>(CREDIT_ENTRIES, 'ownerId', accountId);
      return all.sort((a, b) => a.seq - b.seq);
    },
    async events(accountId, type) {
      const all = await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', accountId);
      return type ? all.filter((e) => e.type === type) : all;
    },
    async checkBalance(accountId) {
      const wallet = await h.wallet(accountId);
      const sum = await ledgerSum(server.services.store, accountId);
      if ((wallet?.balance ?? 0) !== sum)
        throw new Error(`wallet balance ${wallet?.balance} differs from the ledger sum ${sum}`);
      if (sum < 0) throw new Error(`negative balance ${sum}`);
      return sum;
    },
    async close() {
      await settleReloads();
      await server.close();
      await standin.stop();
    },
  };
  return h;
}

/** What the credit routes return: the catalogue, the wallet and its auto-reload state. */
import { z } from 'zod';
import { ActionPricesSchema, PackSchema, PAID_ACTIONS, priceList, type Catalogue } from './catalogue.js';
import { emptyWallet, monthOf, type WalletRecord } from './records.js';
import type { Store } from '../store/port.js';
import { CREDIT_WALLETS } from './records.js';

export const EmptyInput = z.object({}).strict().describe('No input.');

export const PacksOutput = z
  .object({
    packs: z.array(PackSchema).describe('Packs on sale, smallest first.'),
    prices: z
      .array(
        z
          .object({
            action: z.enum(PAID_ACTIONS).describe('The paid action.'),
            credits: z.number().int().describe('Credits per unit.'),
            unit: z.string().describe('The unit: message, minute, second.'),
            description: z.string().describe('What the action is.'),
          })
          .describe('One line of the price list.'),
      )
      .describe('What paid actions cost, in credits.'),
    pricesByAction: ActionPricesSchema,
    paymentsEnabled: z
      .boolean()
      .describe('Whether packs can be bought on this server (Stripe configured); grants work either way.'),
  })
  .describe('Credit packs and the price list.');

export function packsView(
  catalogue: Catalogue,
  paymentsEnabled: boolean,
  describesPhotos = false,
): z.infer<typeof PacksOutput> {
  return {
    packs: catalogue.packs.map((p) => ({ ...p })),
    prices: priceList(catalogue, { describesPhotos }),
    pricesByAction: { ...catalogue.prices },
    paymentsEnabled,
  };
}

export const AutoReloadView = z
  .object({
    enabled: z.boolean().describe('Whether automatic reloads are on.'),
    packType: z.string().nullable().describe('Pack charged on each reload.'),
    thresholds: z
      .array(z.number().int())
      .describe('Balances (credits) that trigger notices; a balance below the highest starts a reload.'),
    maxMonthlySpend: z.number().int().describe('Monthly cap on automatic reload charges, minor units.'),
    spentThisMonth: z
      .number()
      .int()
      .describe('Charged or reserved by automatic reloads this month (UTC), minor units.'),
    reloadInFlight: z.boolean().describe('Whether a reload is being charged right now.'),
    lastAttemptAt: z.string().nullable().describe('When the last reload started, ISO 8601.'),
    consecutiveFailures: z.number().int().describe('Failed reloads in a row.'),
    disabledReason: z.string().nullable().describe('Why auto-reload turned itself off, if it did.'),
    paymentMethodSaved: z.boolean().describe('Whether a card is saved (from a completed checkout); reloads need one.'),
  })
  .describe('Automatic reload settings and state.');

export const WalletOutput = z
  .object({
    accountId: z.string().describe('The account the wallet belongs to.'),
    balance: z.number().int().describe('Credits available now (the sum of the ledger).'),
    totals: z
      .object({
        purchased: z.number().int().describe('Credits bought.'),
        granted: z.number().int().describe('Credits granted (or adjusted) by the operator.'),
        spent: z.number().int().describe('Credits debited by paid actions.'),
        refunded: z.number().int().describe('Credits given back for failed actions.'),
        reversed: z.number().int().describe('Credits taken back for refunded payments.'),
      })
      .describe('Lifetime totals per kind of entry.'),
    shortfall: z
      .number()
      .int()
      .describe('Credits refunded payments could not take back because they were already spent.'),
    entries: z.number().int().describe('Number of ledger entries (GET /history lists them).'),
    autoReload: AutoReloadView,
    updatedAt: z.string().nullable().describe('Last change, ISO 8601 (null for a wallet never used).'),
  })
  .describe('The wallet.');

export function walletView(wallet: WalletRecord, now: Date, persisted = true): z.infer<typeof WalletOutput> {
  const ar = wallet.autoReload;
  return {
    accountId: wallet.ownerId,
    balance: wallet.balance,
    totals: { ...wallet.totals },
    shortfall: wallet.shortfall,
    entries: wallet.seq,
    autoReload: {
      enabled: ar.enabled,
      packType: ar.packType,
      thresholds: [...ar.thresholds],
      maxMonthlySpend: ar.maxMonthlySpend,
      spentThisMonth: ar.month === monthOf(now) ? ar.monthSpend : 0,
      reloadInFlight: ar.inFlight !== null,
      lastAttemptAt: ar.lastAttemptAt,
      consecutiveFailures: ar.consecutiveFailures,
      disabledReason: ar.disabledReason,
      paymentMethodSaved: wallet.paymentMethodId !== null,
    },
    updatedAt: persisted ? wallet.updatedAt : null,
  };
}

export async function getWallet(store: Store, accountId: string, now: Date): Promise<z.infer<typeof WalletOutput>> {
  const wallet = await store.get<WalletRecord>(CREDIT_WALLETS, accountId);
  return walletView(wallet ?? emptyWallet(accountId, now), now, wallet !== undefined);
}

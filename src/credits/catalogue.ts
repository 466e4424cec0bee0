/**
 * What credits cost and what they buy: the packs sold through checkout and the
 * price list of paid actions. Defaults live here; an operator
 * replaces any part with JSON in SVC_CREDITS_CATALOGUE, validated at start.
 */
import { z } from 'zod';
import { ConfigError, type Config } from '../core/config.js';
import type { ErrorDetail } from '../core/errors.js';

/** Paid actions and the unit each one is priced in. */
export const PAID_ACTIONS = ['chat_message', 'media_inference', 'voice', 'avatar'] as const;
export type PaidAction = (typeof PAID_ACTIONS)[number];

const ACTION_UNITS: Record<PaidAction, string> = {
  chat_message: 'message',
  media_inference: 'minute',
  voice: 'second',
  avatar: 'second',
};

const ACTION_DESCRIPTIONS: Record<PaidAction, string> = {
  chat_message: 'One memoir chat message answered by the agent.',
  media_inference:
    "Media inference, per minute of media (a photo counts as one): a photo's size, format, date and place taken; a transcript of speech in audio and video.",
  voice: 'Voice synthesis, per second of audio produced.',
  avatar: 'Animated portrait (a photo with slow motion and the speech; the mouth does not move), per second of video.',
};

/** The media inference line where a vision model is configured: it also describes what a photo shows. */
const DESCRIBED_INFERENCE =
  'Media inference, per minute of media (a photo counts as one): a description of what a photo shows (by the configured vision model), its size, format, date and place taken; a transcript of speech in audio and video.';

const packType = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/)
  .describe('Pack identifier used as packType (lowercase letters, digits, _ or -).');

export const PackSchema = z
  .object({
    type: packType,
    name: z.string().min(1).max(80).describe('Name shown to the user.'),
    credits: z.number().int().positive().max(10_000_000).describe('Credits the pack adds to the wallet.'),
    price: z
      .number()
      .int()
      .positive()
      .max(100_000_000)
      .describe("Price in the currency's minor units (cents for USD)."),
    currency: z
      .string()
      .regex(/^[a-z]{3}$/)
      .describe('ISO 4217 currency code, lowercase (e.g. usd).'),
  })
  .strict()
  .describe('A credit pack sold through checkout.');
export type Pack = z.infer<typeof PackSchema>;

export const ActionPricesSchema = z
  .object(
    Object.fromEntries(
      PAID_ACTIONS.map((a) => [
        a,
        z.number().int().min(0).max(1_000_000).describe(`Credits per ${ACTION_UNITS[a]}: ${ACTION_DESCRIPTIONS[a]}`),
      ]),
    ) as Record<PaidAction, z.ZodNumber>,
  )
  .strict()
  .describe('Credits charged per unit of each paid action.');
export type ActionPrices = z.infer<typeof ActionPricesSchema>;

export const AutoReloadPolicySchema = z
  .object({
    cooldownSeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400)
      .describe('Least time between two automatic reload attempts of one account.'),
    maxConsecutiveFailures: z
      .number()
      .int()
      .min(1)
      .max(20)
      .describe('Failed reloads in a row after which auto-reload turns itself off.'),
    staleAfterSeconds: z
      .number()
      .int()
      .min(60)
      .max(86_400)
      .describe(
        'A reload still marked in flight after this long (the process stopped mid-charge) is resumed with the same idempotency key.',
      ),
  })
  .strict()
  .describe('Operator policy for automatic reloads.');
export type AutoReloadPolicy = z.infer<typeof AutoReloadPolicySchema>;

export const CatalogueSchema = z
  .object({
    packs: z
      .array(PackSchema)
      .min(1)
      .max(20)
      .describe('Packs offered, smallest first.')
      .refine((packs) => new Set(packs.map((p) => p.type)).size === packs.length, {
        message: 'pack types must be unique',
      }),
    prices: ActionPricesSchema,
    lowBalanceThreshold: z
      .number()
      .int()
      .min(0)
      .describe(
        'Balance under which a credits.low_balance event is sent, for accounts that set no auto-reload thresholds.',
      ),
    autoReload: AutoReloadPolicySchema,
  })
  .strict()
  .describe('The credit catalogue.');
export type Catalogue = z.infer<typeof CatalogueSchema>;

export const DEFAULT_CATALOGUE: Catalogue = {
  packs: [
    { type: 'starter', name: 'Starter', credits: 100, price: 500, currency: 'usd' },
    { type: 'standard', name: 'Standard', credits: 550, price: 2500, currency: 'usd' },
    { type: 'large', name: 'Large', credits: 1200, price: 5000, currency: 'usd' },
  ],
  prices: { chat_message: 1, media_inference: 5, voice: 1, avatar: 2 },
  lowBalanceThreshold: 10,
  autoReload: { cooldownSeconds: 60, maxConsecutiveFailures: 3, staleAfterSeconds: 900 },
};

/**
 * The catalogue from SVC_CREDITS_CATALOGUE: JSON whose top-level fields replace
 * the defaults' (`prices` and `autoReload` merge field by field). Throws a
 * readable message on anything invalid.
 */
export function parseCatalogue(raw: string | undefined): Catalogue {
  if (raw === undefined || raw.trim() === '') return DEFAULT_CATALOGUE;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('SVC_CREDITS_CATALOGUE is not valid JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new Error('SVC_CREDITS_CATALOGUE must be a JSON object');
  const given = json as Record<string, unknown>;
  const merged = {
    ...DEFAULT_CATALOGUE,
    ...given,
    prices: { ...DEFAULT_CATALOGUE.prices, ...(given.prices as object | undefined) },
    autoReload: { ...DEFAULT_CATALOGUE.autoReload, ...(given.autoReload as object | undefined) },
  };
  const parsed = CatalogueSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`SVC_CREDITS_CATALOGUE is invalid: ${problems}`);
  }
  return parsed.data;
}

/** Catalogues parsed so far, by their SVC_CREDITS_CATALOGUE text (a service has one; tests a few). */
const parsedCatalogues = new Map<string, Catalogue>();

/**
 * The catalogue a configuration names: SVC_CREDITS_CATALOGUE over the defaults, parsed once per value. Throws a
 * ConfigError on an invalid value; the service calls it when it opens, so a bad catalogue stops it at start.
 */
export function catalogueOf(config: Pick<Config, 'creditsCatalogue'>): Catalogue {
  const raw = config.creditsCatalogue;
  if (raw === undefined) return DEFAULT_CATALOGUE;
  let catalogue = parsedCatalogues.get(raw);
  if (catalogue === undefined) {
    try {
      catalogue = parseCatalogue(raw);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
    parsedCatalogues.set(raw, catalogue);
  }
  return catalogue;
}

export function findPack(catalogue: Catalogue, type: string): Pack | undefined {
  return catalogue.packs.find((p) => p.type === type);
}

/** The refusal of a pack the catalogue does not have: the caller's text quoted as JSON (never raw), and the packs. */
export function unknownPack(catalogue: Catalogue, type: string): ErrorDetail {
  return {
    field: 'packType',
    reason: `no pack ${JSON.stringify(type)}; choose one of ${catalogue.packs.map((p) => p.type).join(', ')}`,
  };
}

/** Credits an action costs for `units` of it (rounded up to a whole credit). */
export function actionCost(catalogue: Catalogue, action: PaidAction, units: number): number {
  if (!Number.isFinite(units) || units < 0) throw new Error(`units must be a non-negative number, got ${units}`);
  return Math.ceil(catalogue.prices[action] * units);
}

/**
 * The price list as GET /packs shows it. A photo description is promised only where a vision model is configured
 * (`describesPhotos`): without one, inference gives a photo's metadata alone.
 */
export function priceList(
  catalogue: Catalogue,
  opts: { describesPhotos?: boolean } = {},
): Array<{ action: PaidAction; credits: number; unit: string; description: string }> {
  return PAID_ACTIONS.map((action) => ({
    action,
    credits: catalogue.prices[action],
    unit: ACTION_UNITS[action],
    description:
      action === 'media_inference' && opts.describesPhotos ? DESCRIBED_INFERENCE : ACTION_DESCRIPTIONS[action],
  }));
}

import { z } from 'zod';
import { NAME_CHARS, NAME_CHARS_REASON } from '../core/names.js';
import { RELATIONSHIP_WORDS } from '../law/relationship-words.js';
import { TEMPLATE_TYPES } from '../law/templates.js';
import {
  GUARDIAN_WAIT_DAYS,
  GUARDIAN_WAIT_DAYS_MAX,
  GUARDIAN_WAIT_DAYS_MIN,
  MAX_VETOES,
  MAX_VETOES_LIMIT,
} from './guardians.js';

/**
 * The inheritance plan a contract is generated from: beneficiaries and shares,
 * the dead man's switch, guardians and assets (rules in docs/decisions.md,
 * Contracts). Chain generators receive a plan that has already passed
 * `validatePlan` (addresses valid for the chain, shares summing to 100).
 */

export const BLOCKCHAINS = ['evm', 'solana', 'ton'] as const;
export type Blockchain = (typeof BLOCKCHAINS)[number];

export const ASSET_TYPES = ['native', 'erc20', 'erc721', 'spl', 'jetton'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

export const BeneficiarySchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(NAME_CHARS, { error: NAME_CHARS_REASON })
      .describe(
        'Name of the beneficiary (kept off-chain): one line, without control characters or bidirectional controls (it is written into mail to that heir).',
      ),
    address: z.string().trim().min(1).max(100).describe('Wallet address on the chosen chain.'),
    percentage: z
      .number()
      .gt(0)
      .max(100)
      .describe('Share of the estate in percent, up to two decimals; all beneficiaries sum to exactly 100.'),
    relationship: z
      .string()
      .trim()
      .max(60)
      .optional()
      .describe(`${RELATIONSHIP_WORDS} Required for Islamic templates.`),
    email: z.string().trim().email().max(254).optional().describe('Email for notifications (kept off-chain).'),
  })
  .describe('One beneficiary.');
export type Beneficiary = z.infer<typeof BeneficiarySchema>;

/** The default check-in interval of the dead man's switch, for a plan that sets none. */
export const DEFAULT_SWITCH_INTERVAL_DAYS = 365;

export const DeadMansSwitchSchema = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        'Whether inactivity of the owner releases the estate (default true). false is allowed only with guardians, who can then release it.',
      ),
    intervalDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .default(DEFAULT_SWITCH_INTERVAL_DAYS)
      .describe('Days after the last check-in before the switch can trigger (default 365).'),
    gracePeriodDays: z
      .number()
      .int()
      .min(0)
      .max(365)
      .default(0)
      .describe(
        'Extra days after the deadline during which guardians can veto a wrong trigger and the owner can still check in.',
      ),
  })
  .describe("Dead man's switch with an optional grace period.");
export type DeadMansSwitch = z.infer<typeof DeadMansSwitchSchema>;

export const GuardiansSchema = z
  .object({
    addresses: z
      .array(z.string().trim().min(1).max(100).describe('Guardian address.'))
      .min(1)
      .max(10)
      .describe('Guardian addresses.'),
    threshold: z.number().int().min(1).max(10).describe('How many guardians must confirm (m of n).'),
    waitDays: z
      .number()
      .int()
      .min(GUARDIAN_WAIT_DAYS_MIN)
      .max(GUARDIAN_WAIT_DAYS_MAX)
      .optional()
      .describe(
        `Days the owner has to answer the guardians' confirmed early release with any sign of life, which cancels it (default ${GUARDIAN_WAIT_DAYS}; ${GUARDIAN_WAIT_DAYS_MIN} to ${GUARDIAN_WAIT_DAYS_MAX}).`,
      ),
    maxVetoes: z
      .number()
      .int()
      .min(0)
      .max(MAX_VETOES_LIMIT)
      .optional()
      .describe(
        `How many times the guardians may postpone a release by veto during the grace period after the owner's last sign of life; then the release proceeds (default ${MAX_VETOES}; 0 to ${MAX_VETOES_LIMIT}, 0 means no veto).`,
      ),
  })
  .describe(
    'Guardians (the multiSig feature): m of n may confirm early release or veto a wrong trigger during the grace period.',
  );
export type Guardians = z.infer<typeof GuardiansSchema>;

export const AssetSchema = z
  .object({
    type: z.enum(ASSET_TYPES).describe('Kind of asset held by the contract.'),
    address: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('Token contract / mint / jetton master address; required for every type but native.'),
    tokenId: z
      .string()
      .regex(/^\d{1,78}$/)
      .optional()
      .describe('Token id of an ERC-721 item (decimal).'),
    symbol: z.string().trim().max(20).optional().describe('Ticker symbol, for display.'),
    beneficiary: z
      .string()
      .trim()
      .max(100)
      .optional()
      .describe('For an erc721 item: the beneficiary address that receives it.'),
  })
  .describe('An asset the contract distributes.');
export type Asset = z.infer<typeof AssetSchema>;

export const PlanSchema = z
  .object({
    blockchain: z.enum(BLOCKCHAINS).describe('Target chain family.'),
    ownerAddress: z.string().trim().min(1).max(100).describe('Address of the estate owner.'),
    beneficiaries: z
      .array(BeneficiarySchema)
      .min(1)
      .max(50)
      .describe('Beneficiaries, 1 to 50, percentages summing to 100.'),
    inheritanceTemplate: z
      .enum(TEMPLATE_TYPES)
      .default('custom')
      .describe('Inheritance template (see list_templates).'),
    deadMansSwitch: DeadMansSwitchSchema.optional().describe(
      "Dead man's switch settings. When omitted, the default switch applies (enabled, 365 days, no grace period) and the answer says so; without a switch the estate could never be released after the owner's death. enabled: false requires guardians.",
    ),
    guardians: GuardiansSchema.optional().describe('Optional guardians (multiSig feature).'),
    assets: z.array(AssetSchema).max(20).optional().describe('Assets held; the native coin only when omitted.'),
  })
  .describe('An inheritance plan.');
export type Plan = z.infer<typeof PlanSchema>;

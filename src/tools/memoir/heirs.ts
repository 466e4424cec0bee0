/**
 * The memoir owner's side of heirs' access (src/memoir/heirs.ts): linking plans,
 * reporting their dead man's switch events, and managing the shares.
 */
import { credentialOf } from '../../accounts/liveness.js';
import { GRANTS, type GrantRecord } from '../../accounts/grants.js';
import { allowanceOf } from '../../memoir/heir-allowance.js';
import { z } from 'zod';
import { PlanSchema } from '../../contracts/plan.js';
import {
  HEIR_DEFAULTS,
  HEIR_LIMITS,
  linkPlan,
  listPlans,
  MIN_WAIT_DAYS,
  ownerShares,
  reissueShareCode,
  reportDeadmanEvent,
  revokeShare,
  unlinkPlan,
  updatePlan,
} from '../../memoir/heirs.js';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { defineTool, DELETE, DESTRUCTIVE, READ, WRITE, WRITE_IDEMPOTENT } from '../define.js';
import { memoirPath } from './schemas.js';

const OWNER = { domain: 'memoir', scope: 'chat', principals: ['session', 'key'], bucket: 'default' } as const;
const MEMOIR_SCOPE_NOTE = "Needs scope `chat` for keys (the memoir is the agent's material; sessions have it).";
/**
 * Tools that mail heirs' addresses: a session whose own address is not confirmed (anyone may register one without
 * reading its mail, sign in at once and register again) must not have the service mail strangers in its name.
 */
const MAILS_HEIRS = {
  confirmedAddress:
    'Confirm your email address first (open the link mailed to it at registration): until then the service mails no heir for you.',
} as const;
const MAILS_HEIRS_NOTE = 'A user session must have confirmed its address first (403 EMAIL_NOT_VERIFIED).';

const PlanId = z
  .string()
  .regex(/^mhp_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Linked plan id (mhp_...).');
const ShareId = z
  .string()
  .regex(/^shr_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Share id (shr_...).');

const HeirAccessSchema = z
  .object({
    enabled: z.boolean().describe('Whether the shares open when the switch fires (off unless set).'),
    openAfterDays: z
      .number()
      .int()
      .min(MIN_WAIT_DAYS)
      .max(365)
      .describe(
        `The waiting period, at least ${MIN_WAIT_DAYS} days: a reported trigger opens the shares only when these days pass with no sign of life of the owner (a check-in, a sign-in, or a call with another of the account's keys or sessions).`,
      ),
    accessDays: z.number().int().min(1).max(3650).describe('Days the shares stay open once open.'),
    allowChat: z.boolean().describe('Whether heirs may talk with the agent, besides reading the memoir.'),
  })
  .describe("Heirs' access to the memoir.");

const HeirAccessPatch = z
  .strictObject({
    enabled: HeirAccessSchema.shape.enabled.optional(),
    openAfterDays: HeirAccessSchema.shape.openAfterDays.optional(),
    accessDays: HeirAccessSchema.shape.accessDays.optional(),
    allowChat: HeirAccessSchema.shape.allowChat.optional(),
  })
  .describe(
    `Heirs' access; defaults: enabled false, openAfterDays ${HEIR_DEFAULTS.openAfterDays}, accessDays ${HEIR_DEFAULTS.accessDays}, allowChat true.`,
  );

const PlanViewSchema = z
  .object({
    id: PlanId,
    label: z.string().describe("The owner's name for the plan."),
    blockchain: z.string().describe('Chain family of the plan.'),
    ownerAddress: z.string().describe("The estate owner's address."),
    contractAddress: z.string().nullable().describe('Address of the deployed contract, when given.'),
    intervalDays: z.number().int().describe("The dead man's switch check-in interval, in days."),
    heirAccess: HeirAccessSchema,
    heirs: z
      .array(
        z
          .object({
            shareId: ShareId,
            name: z.string().describe("The beneficiary's name."),
            address: z.string().describe("The beneficiary's address."),
            relationship: z.string().nullable().describe('Relationship to the owner, when given.'),
            emailBound: z.boolean().describe("Whether claiming needs a signed-in user with the beneficiary's email."),
          })
          .describe('An heir with a share.'),
      )
      .describe('The heirs given a share.'),
    state: z
      .enum(['armed', 'verifying', 'triggered'])
      .describe(
        '"verifying" from a reported deadman.triggered until its waiting period ends; "triggered" once it ended with no sign of life of the owner.',
      ),
    watched: z
      .boolean()
      .describe('Whether the plan is followed on chain: then only the chain opens its shares and reports are refused.'),
    verification: z
      .object({
        state: z.enum(['waiting', 'failed', 'complete']).describe('Where the verification stands.'),
        startedAt: z.string().describe('When the trigger was reported (ISO 8601).'),
        endsAt: z.string().describe('When the shares open if no sign of life comes first (ISO 8601).'),
        failedBy: z
          .string()
          .nullable()
          .describe(
            'What ended it: a sign of life (check-in, sign-in, key or session), or watched (the plan became followed on chain, which alone opens it since); null otherwise.',
          ),
        endedAt: z.string().nullable().describe('When it failed or completed (ISO 8601), or null.'),
        channels: z
          .array(z.enum(['webhook', 'email']).describe('A channel.'))
          .max(2)
          .describe(
            "How the owner was told it started: webhook (a subscription to verification.started) and email (a message with a one-click check-in link to each of the account's confirmed addresses). For a plan opened by the chain (no waiting period), how they were told the contract released: webhook (verification.complete) and email.",
          ),
      })
      .nullable()
      .describe('The verification of the last reported trigger, or null.'),
    triggeredAt: z.string().nullable().describe('When the switch fired (ISO 8601), or null.'),
    lastEvent: z
      .object({
        type: z.string().describe('Event type.'),
        eventId: z.string().describe('Event id (evt_...).'),
        at: z.string().describe('When it was reported (ISO 8601).'),
      })
      .nullable()
      .describe('The last switch event reported, or null.'),
    createdAt: z.string().describe('When it was linked (ISO 8601).'),
    updatedAt: z.string().describe('Last change (ISO 8601).'),
  })
  .describe('A plan linked to the memoir.');

const ShareState = z
  .enum(['pending', 'waiting', 'open', 'expired', 'revoked'])
  .describe('pending: the switch has not fired (or access is off); waiting: opens at opensAt; open; expired; revoked.');

const CodeDelivery = z
  .enum(['email', 'owner'])
  .describe(
    "How the claim code reaches the heir: email (mailed to the beneficiary's address, never shown to you) or owner (you hand it over).",
  );
const MailedAt = z
  .string()
  .nullable()
  .describe("When the code was queued to the heir's address (ISO 8601), or null when it is yours to hand over.");

const OwnerShareSchema = z
  .object({
    shareId: ShareId,
    planId: z.string().nullable().describe('The plan that gave it.'),
    heir: z.string().describe("The heir's name."),
    state: ShareState,
    claimed: z.boolean().describe('Whether an account has claimed it with its code.'),
    claimedAt: z.string().nullable().describe('When it was claimed (ISO 8601), or null.'),
    emailBound: z.boolean().describe("Whether claiming needs the beneficiary's email."),
    codeDelivery: CodeDelivery,
    codeMail: z
      .object({
        queuedAt: z.string().describe('When the message with the current code was queued (ISO 8601).'),
        state: z
          .enum(['pending', 'sending', 'sent', 'failed', 'suppressed'])
          .nullable()
          .describe('Where its sending stands (failed: the mail server refused it for good); null if unknown.'),
        sentAt: z.string().nullable().describe('When the mail server accepted it (ISO 8601), or null.'),
      })
      .nullable()
      .describe("The message that carried the share's current claim code to the heir's address, or null."),
    permissions: z.array(z.enum(['read', 'chat']).describe('A permission.')).describe('What the holder may do.'),
    opensAt: z.string().nullable().describe('When it opens (ISO 8601), or null while not scheduled.'),
    expiresAt: z.string().nullable().describe('When it closes (ISO 8601), or null while not scheduled.'),
    revokedAt: z.string().nullable().describe('When it was withdrawn (ISO 8601), or null.'),
  })
  .describe('A share of the memoir, as its owner sees it.');

/** A share as list_memoir_shares shows it: with what its heir's chat allowance holds. */
const ListedShareSchema = OwnerShareSchema.extend({
  chatAllowance: z
    .object({
      prepaid: z.number().int().describe('Credits you prepaid on this share in all (prepay_memoir_heir_chat).'),
      remaining: z.number().int().describe("Credits left for the heir's chat."),
      spent: z.number().int().describe("Credits the heir's chat has spent of it so far."),
    })
    .describe("The heir's chat allowance you prepaid on this share: spent before the heir's own credits."),
}).describe('A share of the memoir, as its owner sees it, with its chat allowance.');

export const linkMemoirPlanTool = defineTool({
  ...OWNER,
  name: 'link_memoir_plan',
  title: 'Link an inheritance plan to the memoir',
  description:
    "Links an inheritance plan with a dead man's switch to the memoir and gives each heir (every beneficiary, or those named in `heirs`) a share with a claim code. " +
    'A beneficiary with an email gets their code by mail only, bound to that address (only a user with it, confirmed, can claim): the answer says when it was mailed, not the code. ' +
    'The codes of the others are in this answer only: hand each to its heir. ' +
    "Heirs' access is off unless `heirAccess.enabled`; when the plan's deadman.triggered event is reported, a verification starts and the shares open after its waiting period `openAfterDays` (at least 7) for `accessDays`, unless the owner shows a sign of life first. " +
    `${MAILS_HEIRS_NOTE} ${MEMOIR_SCOPE_NOTE}`,
  ...MAILS_HEIRS,
  annotations: WRITE,
  example: {
    label: 'Family estate',
    plan: {
      blockchain: 'evm',
      ownerAddress: '0x1111111111111111111111111111111111111111',
      beneficiaries: [
        {
          name: 'Ana',
          address: '0x2222222222222222222222222222222222222222',
          percentage: 60,
          relationship: 'daughter',
        },
        { name: 'Rui', address: '0x3333333333333333333333333333333333333333', percentage: 40, relationship: 'son' },
      ],
      deadMansSwitch: { enabled: true, intervalDays: 365 },
    },
    heirAccess: { enabled: true, openAfterDays: 7, accessDays: 365, allowChat: true },
  },
  input: z
    .strictObject({
      label: z
        .string()
        .min(1)
        .max(HEIR_LIMITS.label)
        .optional()
        .describe(`Your name for the plan, up to ${HEIR_LIMITS.label} characters.`),
      plan: PlanSchema,
      contractAddress: z
        .string()
        .trim()
        .min(1)
        .max(128)
        .optional()
        .describe('Address of the deployed contract, if deployed.'),
      heirAccess: HeirAccessPatch.optional(),
      heirs: z
        .array(z.string().trim().min(1).max(100).describe('A beneficiary address.'))
        .min(1)
        .max(50)
        .optional()
        .describe('Addresses of the beneficiaries to give a share (default: all of them).'),
    })
    .describe("The plan and heirs' access."),
  output: z
    .object({
      plan: PlanViewSchema,
      codes: z
        .array(
          z
            .object({
              shareId: ShareId,
              heir: z.string().describe("The heir's name."),
              address: z.string().describe("The heir's address."),
              delivery: CodeDelivery,
              code: z
                .string()
                .nullable()
                .describe(
                  'The claim code (shc_...) when it is yours to hand over: shown once, never stored. Null when it was mailed to the heir.',
                ),
              mailedAt: MailedAt,
            })
            .describe("A share's claim code, or when it was mailed."),
        )
        .describe('One entry per heir.'),
    })
    .describe("The linked plan and its heirs' claim codes."),
  rest: { method: 'POST', shape: 'data', status: 201, ...memoirPath('/heirs/plans'), extraStatuses: [409] },
  handler: (input, ctx) => linkPlan(ctx.store, ctx.principal.ownerId, input, ctx.clock),
});

export const listMemoirPlansTool = defineTool({
  ...OWNER,
  name: 'list_memoir_plans',
  title: 'List plans linked to the memoir',
  description: `The plans linked to the memoir, newest first (at most ${HEIR_LIMITS.plansPerAccount}). ${MEMOIR_SCOPE_NOTE}`,
  annotations: READ,
  example: { page: 1, limit: 20 },
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({ items: z.array(PlanViewSchema).describe('The plans on this page.'), pagination: OffsetPageMetaSchema })
    .describe('A page of linked plans.'),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/heirs/plans') },
  handler: async (input, ctx) =>
    paginateOffset((await listPlans(ctx.store, ctx.principal.ownerId, ctx.clock)).items, input.page, input.limit),
});

export const updateMemoirPlanTool = defineTool({
  ...OWNER,
  name: 'update_memoir_plan',
  title: "Change a linked plan's heirs' access",
  description: `Changes the label or heirs' access of a linked plan. Its shares follow at once: enabling access after the switch fired schedules them; disabling closes them again (revoked shares stay revoked). ${MEMOIR_SCOPE_NOTE}`,
  annotations: WRITE_IDEMPOTENT,
  example: { planId: 'mhp_01JD000000000000000000000A', heirAccess: { enabled: true } },
  input: z
    .strictObject({
      planId: PlanId,
      label: z.string().min(1).max(HEIR_LIMITS.label).optional().describe('A new label.'),
      heirAccess: HeirAccessPatch.optional(),
    })
    .describe('What to change.'),
  output: PlanViewSchema,
  rest: { method: 'PATCH', shape: 'data', ...memoirPath('/heirs/plans/:planId') },
  handler: (input, ctx) => updatePlan(ctx.store, ctx.principal.ownerId, input.planId, input, ctx.clock),
});

export const unlinkMemoirPlanTool = defineTool({
  ...OWNER,
  name: 'unlink_memoir_plan',
  title: 'Unlink a plan from the memoir',
  description: `Unlinks a plan and withdraws its shares (their holders lose access at once; the codes stop working). Vaults linked to the plan are linked to none afterwards (\`vault.updated\`, change \`plan.unlinked\`). ${MEMOIR_SCOPE_NOTE}`,
  annotations: DELETE,
  example: { planId: 'mhp_01JD000000000000000000000A' },
  input: z.strictObject({ planId: PlanId }).describe('The plan.'),
  output: z
    .object({
      deleted: z.boolean().describe('Always true.'),
      sharesRevoked: z.number().int().describe('Shares withdrawn.'),
      vaultsUnlinked: z
        .number()
        .int()
        .describe(
          'Vaults that were linked to the plan, now linked to none (link them to another plan to release them).',
        ),
    })
    .describe('What was removed.'),
  rest: { method: 'DELETE', shape: 'data', ...memoirPath('/heirs/plans/:planId') },
  handler: (input, ctx) => unlinkPlan(ctx.store, ctx.principal.ownerId, input.planId, ctx.clock),
});

export const reportDeadmanEventTool = defineTool({
  ...OWNER,
  scope: 'contracts',
  name: 'report_deadman_event',
  title: "Report a linked plan's dead man's switch event",
  description:
    "Records a dead man's switch event of a linked plan, as the account's chain watcher or the owner sees it, and sends it to the account's webhooks. " +
    "`deadman.triggered` never opens anything by itself: it starts a verification (`verification.started` to the owner) and schedules the heirs' shares (when access is on) for the end of its waiting period, `openAfterDays` (at least 7). " +
    "Any sign of life of the owner before then ends it (`verification.failed`) and closes the shares again: a check-in (`deadman.reset`), a sign-in, or a call with another of the account's keys or sessions than the one that reported. " +
    'When the period passes, `verification.complete` and the shares open. Reporting a trigger again answers the first event (recorded: false). ' +
    '`deadman.reset` after the shares opened is refused (409); `deadman.warning` is refused after a trigger (409). A plan watched on chain refuses reports (409). Needs scope `contracts` for keys.',
  annotations: WRITE,
  example: {
    planId: 'mhp_01JD000000000000000000000A',
    type: 'deadman.triggered',
    transactionHash: '0x' + 'ab'.repeat(32),
    network: 'sepolia',
  },
  input: z
    .strictObject({
      planId: PlanId,
      type: z.enum(['deadman.warning', 'deadman.triggered', 'deadman.reset']).describe('The event.'),
      transactionHash: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_:+/=-]{1,128}$/)
        .optional()
        .describe('The transaction that fired or reset the switch, if on chain.'),
      network: z
        .string()
        .trim()
        .regex(/^[a-z0-9-]{1,40}$/)
        .optional()
        .describe('The network it happened on.'),
      blockNumber: z.number().int().min(0).optional().describe('The block it happened in.'),
    })
    .describe('The event.'),
  output: z
    .object({
      eventId: z.string().describe('The event id (evt_...).'),
      recorded: z
        .boolean()
        .describe('false when the switch had fired already: the first deadman.triggered event is answered.'),
      sharesScheduled: z.number().int().describe("Heirs' shares scheduled to open (deadman.triggered with access on)."),
      plan: PlanViewSchema,
    })
    .describe('The recorded event and the plan.'),
  rest: { method: 'POST', shape: 'data', ...memoirPath('/heirs/plans/:planId/events'), extraStatuses: [409] },
  handler: (input, ctx) =>
    reportDeadmanEvent(
      ctx.store,
      ctx.principal.ownerId,
      input.planId,
      input,
      ctx.clock,
      credentialOf(ctx.principal) ?? `${ctx.principal.kind}:${ctx.principal.keyId}`,
    ),
});

export const listMemoirSharesTool = defineTool({
  ...OWNER,
  name: 'list_memoir_shares',
  title: "List the memoir's shares",
  description: `The shares given to heirs, newest first, with their state and the chat allowance you prepaid on each (in all, left, spent by the heir's chat), optionally of one plan. ${MEMOIR_SCOPE_NOTE}`,
  annotations: READ,
  example: { planId: 'mhp_01JD000000000000000000000A', page: 1, limit: 20 },
  input: z.strictObject({ planId: PlanId.optional(), ...offsetPageInput }).describe('Filter and paging.'),
  output: z
    .object({
      items: z.array(ListedShareSchema).describe('The shares on this page.'),
      pagination: OffsetPageMetaSchema,
    })
    .describe('A page of shares.'),
  rest: { method: 'GET', shape: 'list', ...memoirPath('/heirs/shares') },
  handler: async (input, ctx) => {
    const page = paginateOffset(
      (await ownerShares(ctx.store, ctx.principal.ownerId, ctx.clock.now(), input.planId)).items,
      input.page,
      input.limit,
    );
    const grants = await Promise.all(page.items.map((s) => ctx.store.get<GrantRecord>(GRANTS, s.shareId)));
    return {
      ...page,
      items: page.items.map((s, i) => ({
        ...s,
        chatAllowance: grants[i] ? allowanceOf(grants[i]) : { prepaid: 0, remaining: 0, spent: 0 },
      })),
    };
  },
});

export const revokeMemoirShareTool = defineTool({
  ...OWNER,
  name: 'revoke_memoir_share',
  title: 'Withdraw a share',
  description: `Withdraws a share for good: its holder loses access at once and its code stops working. ${MEMOIR_SCOPE_NOTE}`,
  annotations: DELETE,
  example: { shareId: 'shr_01JD000000000000000000000B' },
  input: z.strictObject({ shareId: ShareId }).describe('The share.'),
  output: OwnerShareSchema,
  rest: { method: 'DELETE', shape: 'data', ...memoirPath('/heirs/shares/:shareId') },
  handler: (input, ctx) => revokeShare(ctx.store, input.shareId, ctx.clock),
});

export const reissueMemoirShareCodeTool = defineTool({
  ...OWNER,
  name: 'reissue_memoir_share_code',
  title: 'Give a share a new claim code',
  description: `Replaces a share's claim code (a lost or leaked code): the old code stops working and whoever claimed the share loses it. A share bound to an email gets the new code by mail only (for a share already open, the mail says the earlier code no longer works and access continues once the heir claims with the new one); otherwise it is in this answer only. ${MAILS_HEIRS_NOTE} ${MEMOIR_SCOPE_NOTE}`,
  ...MAILS_HEIRS,
  annotations: DESTRUCTIVE,
  example: { shareId: 'shr_01JD000000000000000000000B' },
  input: z.strictObject({ shareId: ShareId }).describe('The share.'),
  output: z
    .object({
      share: OwnerShareSchema,
      delivery: CodeDelivery,
      code: z
        .string()
        .nullable()
        .describe('The new claim code (shc_...) when it is yours to hand over: shown once, never stored; else null.'),
      mailedAt: MailedAt,
    })
    .describe('The share and its new code, or when it was mailed.'),
  rest: { method: 'POST', shape: 'data', ...memoirPath('/heirs/shares/:shareId/code'), extraStatuses: [409] },
  handler: (input, ctx) => reissueShareCode(ctx.store, input.shareId, ctx.clock),
});

export { ShareId, ShareState };

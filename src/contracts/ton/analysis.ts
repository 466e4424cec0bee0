import type { TonPlanData } from './data.js';
import type { TonShape } from './shape.js';
import { fromNano } from '@ton/core';
import type { TonRentFigures } from './rent.js';
import { JETTON_FEE_MARGIN, JETTON_MESSAGE_VALUE, TON_MAX_UNLISTED } from './contract.js';
import { guardianRulesText } from '../guardians.js';
import { guardianMaxVetoes, guardianWaitSeconds } from './data.js';
import type { TonAdviceCode, TonTechnicalCode, TonWarningCode } from '../../core/messages/ton-words.js';

const PER_JETTON_MESSAGE = fromNano(JETTON_MESSAGE_VALUE + JETTON_FEE_MARGIN);

export interface TonWarning {
  id: string;
  severity: 'low' | 'medium' | 'high' | 'info';
  message: string;
  /** Stable code of the sentence (src/core/messages/ton-words.ts); translations read it with `params`. */
  code: TonWarningCode | TonTechnicalCode;
  /** The figures and strings of the message, as data (amounts in nanoton). */
  params: Record<string, number | string>;
}

/** A suggestion with its code and params: `message` is the suggestion's English text, as in `suggestions`. */
export interface TonAdvice {
  code: TonAdviceCode;
  params: Record<string, number | string>;
  message: string;
}

export interface TonAnalysis {
  securityScore: number;
  warnings: TonWarning[];
  suggestions: string[];
  /** The suggestions again, coded, in the same order. */
  advice: TonAdvice[];
}

type Coded<C> = { code: C; params?: Record<string, number | string> };
/** A nanoton amount as a param (every amount here is far below 2^53 nanoton). */
const nano = (v: bigint): number => Number(v);

const PENALTY: Record<TonWarning['severity'], number> = { high: 25, medium: 10, low: 4, info: 0 };

/** Rule-based review of a plan's TON contract: what could go wrong for the heirs, and what would help. */
export function analyseTon(shape: TonShape, plan: TonPlanData, rent: TonRentFigures): TonAnalysis {
  const warnings: TonWarning[] = [];
  const advice: TonAdvice[] = [];
  const w = (
    id: string,
    severity: TonWarning['severity'],
    message: string,
    coded: Coded<TonWarningCode | TonTechnicalCode>,
    suggestion?: string,
    tip?: Coded<TonAdviceCode>,
  ) => {
    warnings.push({ id, severity, message, code: coded.code, params: coded.params ?? {} });
    if (suggestion && tip) advice.push({ code: tip.code, params: tip.params ?? {}, message: suggestion });
  };
  if (!shape.deadMansSwitch && !shape.guardians) {
    w(
      'ton-owner-only-release',
      'high',
      "Without a dead man's switch or guardians only the owner can release the estate; if the owner cannot act, the funds stay locked.",
      { code: 'ton.owner-release-only' },
      "Enable the dead man's switch or appoint guardians so the estate can be released without the owner.",
      { code: 'ton.advice-enable-switch' },
    );
  }
  if (shape.deadMansSwitch && !shape.gracePeriod) {
    w(
      'ton-no-grace',
      'medium',
      'No grace period: one missed check-in releases the estate at the deadline.',
      { code: 'ton.no-grace-period' },
      'Add a grace period during which the owner can still check in (and guardians can veto).',
      { code: 'ton.advice-add-grace' },
    );
  }
  if (shape.deadMansSwitch && plan.intervalSeconds < 30 * 86_400) {
    w(
      'ton-short-interval',
      'medium',
      'The check-in interval is shorter than 30 days; a holiday could trigger the release.',
      { code: 'ton.short-interval', params: { intervalDays: plan.intervalSeconds / 86_400 } },
      'Use an interval of at least 30 days.',
      { code: 'ton.advice-longer-interval', params: { minDays: 30 } },
    );
  }
  if (shape.deadMansSwitch && !shape.guardians) {
    w(
      'ton-no-guardians',
      'low',
      'No guardians can veto a wrong trigger of the switch.',
      { code: 'ton.no-guardians' },
      'Consider two or three guardians with a majority threshold.',
      { code: 'ton.advice-consider-guardians' },
    );
  }
  if (plan.guardians) {
    const { threshold, addresses } = plan.guardians;
    const timing = {
      waitDays: guardianWaitSeconds(plan.guardians) / 86_400,
      maxVetoes: guardianMaxVetoes(plan.guardians),
    };
    w(
      'ton-guardian-threshold',
      threshold === 1 && addresses.length > 1 ? 'medium' : 'info',
      guardianRulesText(addresses.length, threshold, shape.gracePeriod, timing),
      {
        code: 'ton.guardian-rules',
        params: { threshold, guardians: addresses.length, waitDays: timing.waitDays },
      },
      'Tell your guardians that their confirmation only starts a waiting period, and that any message you send the contract (a check-in, a deposit) cancels it.',
      { code: 'ton.advice-tell-guardians' },
    );
    if (threshold === 1 && addresses.length > 1) {
      w(
        'ton-single-guardian-release',
        'medium',
        `A single guardian can propose an early release (you have ${timing.waitDays} days to cancel it).`,
        { code: 'ton.any-one-guardian', params: { guardians: addresses.length, waitDays: timing.waitDays } },
        'Raise the guardian threshold to a majority.',
        { code: 'ton.advice-majority-threshold' },
      );
    }
    if (threshold === addresses.length && addresses.length > 1) {
      w(
        'ton-unanimous-guardians',
        'low',
        'Every guardian must act: one lost guardian wallet blocks early release and vetoes.',
        { code: 'ton.all-guardians' },
        'Use a threshold below the number of guardians.',
        { code: 'ton.advice-lower-threshold' },
      );
    }
    if (shape.guardians && !shape.gracePeriod) {
      w(
        'ton-guardians-no-veto',
        'info',
        'Guardians can confirm an early release; vetoes need a grace period, which this plan does not have.',
        { code: 'ton.guardians-no-veto' },
      );
    }
  }
  if (shape.jettons) {
    w(
      'ton-jetton-notifications',
      'medium',
      'Only jetton transfers that notify the contract (forward_ton_amount > 0) are counted; jettons sent without a notification sit in its wallet undistributed.',
      { code: 'ton.jetton-notifications' },
      'Always send jettons to the contract with a forward TON amount (for example 0.01 TON).',
      { code: 'ton.advice-forward-amount', params: { forwardNanoton: 10_000_000 } },
    );
    w(
      'ton-jetton-discovery',
      'info',
      `The contract learns its jetton wallets from the masters (TEP-89) at deployment, paid from the deployment value; a master without TEP-89 support cannot be used. Anyone may retry with \`discover\`, but the caller pays: the message must carry ${PER_JETTON_MESSAGE} TON per wallet still unknown, the estate balance is never spent, and what is left is returned.`,
      { code: 'ton.jetton-discovery', params: { perWalletNanoton: nano(JETTON_MESSAGE_VALUE + JETTON_FEE_MARGIN) } },
    );
    w(
      'ton-jetton-claims',
      'info',
      'Each jetton is claimed with its own message carrying about 0.1 TON for the jetton transfer; a claim whose transfer bounces stays claimable.',
      { code: 'ton.jetton-claims', params: { claimNanoton: 100_000_000 } },
    );
    w(
      'ton-jetton-cancel-bounce',
      'info',
      `On cancel the jettons go back to the owner; the rent reserve stays in the contract. If a jetton wallet refuses the return, the jettons are recorded as held again and the owner retries with \`return_jettons\`, attaching ${PER_JETTON_MESSAGE} TON per jetton.`,
      {
        code: 'ton.jetton-cancel-bounce',
        params: { perJettonNanoton: nano(JETTON_MESSAGE_VALUE + JETTON_FEE_MARGIN) },
      },
    );
  }
  w(
    'ton-unlisted-jettons',
    'info',
    (shape.jettons ? 'Jettons the plan lists are shared through their own records. ' : 'This plan lists no jettons. ') +
      'Jettons of any other kind (an airdrop after the deadline included) are shared by the heirs in their shares, as far as the contract is told of them: ' +
      "a contract cannot read a jetton balance, so it acts on each transfer notification (forward_ton_amount > 0), and only ever answers the wallet that sent it with transfer orders for the notified amount, so a forged notification moves nothing but the forger's own tokens. " +
      `After the release, a notification carrying ${PER_JETTON_MESSAGE} TON per beneficiary is shared at once from its own value; otherwise the wallet and amount are recorded (at most ${TON_MAX_UNLISTED} wallets at a time) and anyone may settle a record with \`shareUnlisted\` (share_unlisted), attaching ${PER_JETTON_MESSAGE} TON per beneficiary (each transfer forwards its part, the rest is returned), which sends each heir its share. ` +
      'Before the release, or after a cancel, the owner takes a recorded jetton back the same way (one transfer, paid by the owner, and proof of life). ' +
      "The estate's TON never pays for these transfers; a share the jetton wallet refuses comes back and is recorded again. " +
      `Limits: a transfer without a notification, or one whose notification carries too little for its own gas, is not seen; a stranger can fill the ${TON_MAX_UNLISTED} records with notifications from contracts of its own (settling a record clears it, at the settler's cost, unless that contract refuses the orders), and while they are full a notification that cannot pay for its own sharing is refused and those jettons stay unshared in the contract's wallet; rounding dust (under one unit per heir) stays there too. ` +
      'Listed jettons are shared by what each notification credited: every beneficiary receives its share of all that arrived, whenever it claims, so a deposit after an early claim gives the early claimant only its own share of that deposit.',
    {
      code: 'ton.unlisted-jettons',
      params: {
        maxUnlisted: TON_MAX_UNLISTED,
        perBeneficiaryNanoton: nano(JETTON_MESSAGE_VALUE + JETTON_FEE_MARGIN),
      },
    },
    'List in the plan every jetton the estate holds or may receive; ask senders of other jettons to attach a forward TON amount.',
    { code: 'ton.advice-list-jettons' },
  );
  const years = rent.reserveLastsDays / 365;
  const reserveYears = years >= 10 ? Math.round(years) : Number(years.toFixed(1));
  w(
    'ton-storage-reserve',
    'info',
    `Storage rent is about ${fromNano(rent.perYear)} TON per year (${fromNano(rent.overInterval)} TON over the interval and grace period). ` +
      `A reserve of ${fromNano(rent.reserve)} TON is kept out of the estate at each check-in and pays the rent from then on, ` +
      `through the deadline, the grace period and a year of claims (alone it lasts about ${years >= 10 ? Math.round(years) : years.toFixed(1)} years); ` +
      'the heirs share the balance less what is left of the reserve, and rounding dust (at most one nanoton per beneficiary) also remains.',
    {
      code: 'ton.storage-reserve',
      params: {
        rentPerYearNanoton: nano(rent.perYear),
        reserveNanoton: nano(rent.reserve),
        reserveYears,
      },
    },
    `Send at least ${fromNano(rent.reserve + 1_000_000_000n)} TON with the deployment (the reserve is never distributed); while you check in, rent comes out of the balance like any account's.`,
    { code: 'ton.advice-deploy-value', params: { depositNanoton: nano(rent.reserve + 1_000_000_000n) } },
  );
  w(
    'ton-cancel',
    'info',
    shape.jettons
      ? 'The owner may cancel before the deadline: every jetton and the TON above the rent reserve go back to the owner, the reserve stays in the contract, and deposits are refused from then on.'
      : 'The owner may cancel before the deadline: the whole balance, rent reserve included, goes back to the owner, and deposits are refused (they bounce) from then on.',
    { code: shape.jettons ? 'ton.cancel-keeps-reserve' : 'ton.cancel-returns-all' },
  );
  w(
    'ton-bounceable-payouts',
    'info',
    'Payouts are bounceable: a payout to a wallet that cannot receive it comes back and stays claimable.',
    { code: 'ton.bounceable-payouts' },
  );
  w(
    'ton-claim-index',
    'info',
    'A beneficiary claims from its own wallet with its index in the plan (0-based); the deployment script lists the order.',
    { code: 'ton.claim-index' },
  );
  w(
    'ton-onchain-update-checks',
    'info',
    'An owner update checks on chain that shares sum to 10000 and addresses are standard; duplicate addresses are only checked by the service.',
    { code: 'ton.onchain-update-checks' },
  );
  const score = Math.max(0, 100 - warnings.reduce((a, x) => a + PENALTY[x.severity], 0));
  if (advice.length === 0)
    advice.push({
      code: 'ton.advice-check-in',
      params: {},
      message: 'Check in well before each deadline and keep the deployment script with your estate documents.',
    });
  return { securityScore: score, warnings, suggestions: advice.map((a) => a.message), advice };
}

import { emptyModule, printModule, type FuncModule } from './func-model.js';
import {
  addCoreConstants,
  addCoreHandlers,
  addCoreHelpers,
  addOwnerWindow,
  addStorage,
  addTemplateConstant,
} from './features/core.js';
import { addGetters, addReceive } from './features/entry.js';
import {
  addGuardianGetters,
  addGuardianHandlers,
  addGuardianState,
  addGuardianStore,
  addGuardianVotes,
} from './features/guardians.js';
import { addJettonConstants, addJettonGetters, addJettonHelpers } from './features/jettons.js';
import { addTiming } from './features/switch.js';
import {
  addTransferConstants,
  addTransferHelpers,
  addUnlistedGetters,
  addUnlistedHelpers,
} from './features/unlisted.js';
import type { TonShape } from './shape.js';
import { STDLIB, stdlibFor } from './stdlib.js';

export {
  OP,
  ERR,
  STATE,
  JETTON_MESSAGE_VALUE,
  JETTON_FEE_MARGIN,
  CLAIM_WINDOW_SECONDS,
  RETURN_QUERY_BASE,
  UNLISTED_QUERY,
  TON_MAX_UNLISTED,
} from './codes.js';

// The TON inheritance contract, built as a FuncModule for one shape; features/core.ts describes its storage.

/** The standard-library declarations the module's code refers to, and no others. */
function usedPrimitives(m: FuncModule): FuncModule['asm'] {
  const body = printModule({ ...m, asm: [] });
  const used = Object.entries(STDLIB)
    .filter(([, decl]) =>
      new RegExp(`(^|[^\\w?])${decl.name.replace(/^~/, '').replace(/[?]/g, '\\?')}\\(`, 'm').test(body),
    )
    .map(([k]) => k);
  return stdlibFor(used);
}

/**
 * The contract model for one shape, feature by feature. FunC needs each
 * function defined before it is used, so the order below is the order of
 * the source: constants, storage, timing, helpers, handlers, recv_internal,
 * getters, each feature's part where the core needs it.
 */
export function buildTonContract(shape: TonShape): FuncModule {
  const m = emptyModule([
    'svc inheritance contract for TON (FunC 0.4.6), generated from a model; do not edit by hand.',
    `Shape: template=${shape.template}, deadMansSwitch=${shape.deadMansSwitch}, gracePeriod=${shape.gracePeriod}, guardians=${shape.guardians}, jettons=${shape.jettons}.`,
    'Per-plan values (owner, beneficiaries and shares, interval, grace, guardians) live in the initial data cell.',
    '',
    "Owner: check_in (resets the deadline), update beneficiaries, withdraw, cancel (before the deadline), release; the owner's first message starts the clock and every owner action moves it.",
    'Beneficiaries: claim their share of everything received (late deposits are shared too) once released.',
    'Payouts are bounceable; a bounced payout is credited back to the beneficiary.',
    "Unlisted jettons: a notification from any other jetton wallet is answered only with transfer orders to that wallet (heirs' shares after the release, or the owner's return before it), paid by the notification or the caller; kept as a bounded record until then.",
    'Storage rent: a reserve set per plan (data) is kept out of the estate; rent after the last check-in is paid from it.',
    ...(shape.jettons
      ? [
          "Jettons: wallets found through the masters (TEP-89); transfers credited from our wallets' notifications; claimed per jetton.",
          "A jetton claim or return that bounces is restored; discover and return_jettons are paid by the caller's message value.",
        ]
      : []),
  ]);
  m.pragmas.push('version >=0.4.4');
  addCoreConstants(m);
  addTransferConstants(m);
  if (shape.jettons) addJettonConstants(m);
  addTemplateConstant(m, shape);
  addStorage(m);
  if (shape.guardians) addGuardianState(m);
  addTiming(m, shape);
  addCoreHelpers(m);
  if (shape.guardians) addGuardianStore(m);
  addOwnerWindow(m, shape);
  if (shape.guardians) addGuardianVotes(m);
  addTransferHelpers(m);
  if (shape.jettons) addJettonHelpers(m);
  addUnlistedHelpers(m);
  addCoreHandlers(m, shape);
  if (shape.guardians) addGuardianHandlers(m, shape);
  addReceive(m, shape);
  addGetters(m, shape);
  if (shape.jettons) addJettonGetters(m);
  addUnlistedGetters(m);
  if (shape.guardians) addGuardianGetters(m);
  m.asm = usedPrimitives(m);
  return m;
}

export function tonContractSource(shape: TonShape): string {
  return printModule(buildTonContract(shape));
}

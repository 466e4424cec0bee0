import { toNano, type Address, type Cell } from '@ton/core';
import { ERR, JETTON_MESSAGE_VALUE, OP, STATE } from './contract.js';
import { guardianWaitSeconds, updateBody, type TonPlanData } from './data.js';
import { actionFwdFees, computeExit, storageFee, ton, type SentOp, type TonHarness } from './harness.js';
import type { TonShape } from './shape.js';
import { jettonWalletAddress } from './jetton-double.js';
import { GAS, SCENARIO_T0, startRun, type Run } from './scenario-run.js';

/**
 * The full life of a generated contract in @ton/sandbox, run before a
 * contract is returned: deployment, deposits, refused unauthorised
 * operations, owner update/withdraw/check-in, the release path of the shape
 * (deadline and grace period, guardians' veto and approval, or the owner's
 * release), a bounced payout credited back, every beneficiary's exact payout,
 * late deposits shared, and (on a snapshot) cancellation. Any deviation
 * throws a ScenarioError naming the step.
 */

export interface ScenarioReport {
  /** Total fees of the contract's transaction per operation, in nanotons. */
  fees: Record<string, bigint>;
  /** The steps that ran, in order. */
  steps: string[];
  transactions: number;
  address: Address;
}

export async function runTonScenario(shape: TonShape, code: Cell, plan: TonPlanData): Promise<ScenarioReport> {
  const run = await startRun(shape, code, plan);
  await deployAndDeposit(run);
  await refuseUnauthorised(run);
  await ownerOperations(run);
  // 5. cancellation, on a snapshot
  const beforeCancel = run.h.blockchain.snapshot();
  await cancel(run);
  if (shape.guardians && shape.deadMansSwitch && plan.guardians) {
    // guardians may release early, before the deadline
    await run.h.blockchain.loadFrom(beforeCancel);
    await approveAll(plan, run.h, run.expectOk, run.expectRefused, run.check);
  }
  await run.h.blockchain.loadFrom(beforeCancel);
  await releasePath(run);
  // 7. a late deposit is shared too
  run.expectOk('late deposit', await run.h.op(run.stranger, OP.deposit, toNano('5')));
  await bouncedPayout(run);
  await jettonClaims(run);
  await finalClaims(run);
  return { fees: run.fees, steps: run.steps, transactions: run.transactions, address: run.address };
}

/** 1-2. Deployment, then deposits from anyone (and, with jettons, their discovery and deposits). */
async function deployAndDeposit(run: Run): Promise<void> {
  const {
    shape,
    plan,
    h,
    address,
    n,
    owner,
    stranger,
    b,
    masters,
    jcode,
    jettonReceived,
    check,
    expectOk,
    expectRefused,
    mint,
  } = run;
  expectOk('deploy', await h.deploy(owner, toNano('1')), 'deployment');
  check('deploy', (await h.owner()).equals(owner), 'get_owner differs from the plan');
  check('deploy', (await h.state()) === STATE.active, 'state is not active');
  check('deploy', (await h.lastCheckIn()) === SCENARIO_T0, 'the clock did not start at deployment');
  check(
    'deploy',
    (await h.deadline()) === (shape.deadMansSwitch ? SCENARIO_T0 + plan.intervalSeconds : 0),
    'wrong deadline',
  );
  const onChain = await h.shares();
  check(
    'deploy',
    onChain.length === n &&
      onChain.every(
        (s, i) => s.address.equals(b[i]!) && s.shareBps === plan.beneficiaries[i]!.shareBps && s.claimed === 0n,
      ),
    'get_shares differs from the plan',
  );

  // 2. deposits from anyone
  expectOk('deposit', await h.op(stranger, OP.deposit, toNano('100')), 'deposit');

  if (masters.length > 0) {
    const js = await h.jettons();
    check(
      'jetton discovery',
      js.every((x, j) => x.wallet?.equals(jettonWalletAddress(jcode!, address, masters[j]!)) === true),
      'jetton wallets were not discovered',
    );
    for (let j = 0; j < masters.length; j++) {
      jettonReceived[j] = 1_000_000_000n * BigInt(j + 1) + 7n;
      await mint(`jetton ${j} deposit`, j, jettonReceived[j]!);
    }
    check(
      'jetton deposit',
      (await h.jettons()).every((x, j) => x.received === jettonReceived[j]),
      'jetton deposits were not credited',
    );
    const fake = await h.op(stranger, OP.transferNotification, GAS, (x) =>
      x
        .storeCoins(10n ** 15n)
        .storeAddress(stranger)
        .storeBit(0),
    );
    run.transactions += fake.result.transactions.length;
    check(
      'forged jetton notification ignored',
      (await h.jettons()).every((x, j) => x.received === jettonReceived[j]),
      'a forged notification was credited',
    );
    run.steps.push('forged jetton notification ignored');
    expectRefused(
      'jetton claim before release refused',
      await h.op(b[0]!, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(0, 8)),
      ERR.notReleased,
    );
  }
}

/** 3. Unauthorised operations are refused. */
async function refuseUnauthorised(run: Run): Promise<void> {
  const { shape, plan, h, owner, stranger, b, expectRefused } = run;
  expectRefused('stranger checkIn refused', await h.op(stranger, OP.checkIn, GAS), ERR.notOwner);
  expectRefused(
    'stranger update refused',
    await h.sendRaw(stranger, GAS, updateBody(plan.beneficiaries)),
    ERR.notOwner,
  );
  expectRefused(
    'stranger withdraw refused',
    await h.op(stranger, OP.withdraw, GAS, (x) => x.storeCoins(1n)),
    ERR.notOwner,
  );
  expectRefused('stranger cancel refused', await h.op(stranger, OP.cancel, GAS), ERR.notOwner);
  expectRefused('stranger release refused', await h.op(stranger, OP.release, GAS), ERR.notOwner);
  expectRefused(
    'stranger claim refused',
    await h.op(stranger, OP.claim, GAS, (x) => x.storeUint(0, 8)),
    ERR.notBeneficiary,
  );
  expectRefused(
    'claim before release refused',
    await h.op(b[0]!, OP.claim, GAS, (x) => x.storeUint(0, 8)),
    ERR.notReleased,
  );
  expectRefused('unknown op refused', await h.op(owner, 0x0badc0de, GAS), ERR.unknownOp);
  if (shape.guardians) {
    expectRefused(
      'stranger approve refused',
      await h.op(stranger, OP.approve, GAS, (x) => x.storeUint(0, 8)),
      ERR.notGuardian,
    );
  }
  if (shape.gracePeriod && plan.guardians) {
    expectRefused(
      'veto before deadline refused',
      await h.op(plan.guardians.addresses[0]!, OP.veto, GAS, (x) => x.storeUint(0, 8)),
      ERR.notInGrace,
    );
  }
}

/** 4. Owner operations before the deadline. */
async function ownerOperations(run: Run): Promise<void> {
  const { shape, plan, h, owner, check, expectOk, expectRefused } = run;
  const bad = plan.beneficiaries.map((x, i) => ({ ...x, shareBps: i === 0 ? x.shareBps - 1 : x.shareBps }));
  expectRefused(
    'update with shares not summing to 10000 refused',
    await h.sendRaw(owner, GAS, updateBody(bad)),
    ERR.badShares,
  );
  expectOk('owner update', await h.sendRaw(owner, GAS, updateBody(plan.beneficiaries)), 'update');
  const ownerBefore = await h.balanceOf(owner);
  expectOk('owner withdraw', await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(toNano('1'))), 'withdraw');
  check(
    'owner withdraw',
    (await h.balanceOf(owner)) - ownerBefore >= toNano('1'),
    'the owner did not receive the withdrawal',
  );
  expectRefused(
    'withdraw beyond the estate refused',
    await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(toNano('1000'))),
    ERR.insufficientFunds,
  );
  h.now = SCENARIO_T0 + 1000;
  expectOk('owner checkIn', await h.op(owner, OP.checkIn, GAS), 'checkIn');
  check('owner checkIn', (await h.lastCheckIn()) === SCENARIO_T0 + 1000, 'check-in did not reset the clock');
  if (shape.deadMansSwitch)
    check('owner checkIn', (await h.deadline()) === SCENARIO_T0 + 1000 + plan.intervalSeconds, 'deadline did not move');
}

/** 5. The owner's cancel returns everything (run on a snapshot). */
async function cancel(run: Run): Promise<void> {
  const { h, n, owner, stranger, b, masters, jcode, jettonReceived, check, expectOk, expectRefused } = run;
  const ob = await h.balanceOf(owner);
  const held = await h.balance();
  expectOk('owner cancel', await h.op(owner, OP.cancel, GAS), 'cancel');
  check('owner cancel', (await h.state()) === STATE.cancelled, 'state is not cancelled');
  const kept = masters.length > 0 ? (await h.reserve()).now : 0n;
  check(
    'owner cancel',
    (await h.balanceOf(owner)) - ob >= held - kept - toNano('0.01') - JETTON_MESSAGE_VALUE * BigInt(masters.length),
    'the owner did not get the balance back',
  );
  for (let j = 0; j < masters.length; j++) {
    const got = await h.jettonBalance(jettonWalletAddress(jcode!, owner, masters[j]!));
    check(
      'owner cancel',
      got === jettonReceived[j],
      `the owner got ${got} of jetton ${j} back, expected ${jettonReceived[j]}`,
    );
  }
  expectRefused('deposit after cancel refused', await h.op(stranger, OP.deposit, toNano('1')), ERR.notActive);
  expectRefused(
    'claim after cancel refused',
    await h.op(b[1 % n]!, OP.claim, GAS, (x) => x.storeUint(1 % n, 8)),
    ERR.notReleased,
  );
}

/** 6. The release path of this shape. */
async function releasePath(run: Run): Promise<void> {
  const { shape, plan, h, owner, b, check, expectOk, expectRefused } = run;
  if (shape.deadMansSwitch) {
    const deadline = await h.deadline();
    h.now = deadline - 1;
    expectRefused(
      'claim just before the deadline refused',
      await h.op(b[0]!, OP.claim, GAS, (x) => x.storeUint(0, 8)),
      ERR.notReleased,
    );
    if (shape.gracePeriod) {
      h.now = deadline + 1;
      check('grace period', (await h.state()) === STATE.active, 'released during the grace period');
      expectRefused(
        'claim during the grace period refused',
        await h.op(b[0]!, OP.claim, GAS, (x) => x.storeUint(0, 8)),
        ERR.notReleased,
      );
      expectRefused(
        'update after the deadline refused',
        await h.sendRaw(owner, GAS, updateBody(plan.beneficiaries)),
        ERR.deadlinePassed,
      );
      if (plan.guardians) {
        const g = plan.guardians;
        for (let i = 0; i < g.threshold; i++) {
          expectOk(`guardian ${i} veto`, await h.op(g.addresses[i]!, OP.veto, GAS, (x) => x.storeUint(i, 8)), 'veto');
          if (i === 0 && g.threshold > 1) {
            expectRefused(
              'double veto refused',
              await h.op(g.addresses[0]!, OP.veto, GAS, (x) => x.storeUint(0, 8)),
              ERR.alreadyVoted,
            );
          }
        }
        check('guardians veto', (await h.lastCheckIn()) === h.now, 'the veto did not restart the clock');
      } else {
        expectOk('owner checkIn during grace', await h.op(owner, OP.checkIn, GAS));
        check(
          'owner checkIn during grace',
          (await h.lastCheckIn()) === h.now,
          'check-in during grace did not restart the clock',
        );
      }
      h.now = (await h.releaseTime()) - 1;
      check('grace period', (await h.state()) === STATE.active, 'released before the grace period ended');
    }
    h.now = (await h.releaseTime()) + 1;
    check('past the deadline', (await h.state()) === STATE.released, 'not released after the deadline');
    expectRefused('owner checkIn after release refused', await h.op(owner, OP.checkIn, GAS), ERR.deadlinePassed);
    expectRefused('owner cancel after the deadline refused', await h.op(owner, OP.cancel, GAS), ERR.deadlinePassed);
  } else if (shape.guardians && plan.guardians) {
    await approveAll(plan, h, expectOk, expectRefused, check);
  } else {
    h.now = SCENARIO_T0 + 2000;
    expectOk('owner release', await h.op(owner, OP.release, GAS), 'release');
    check('owner release', (await h.state()) === STATE.released, 'not released');
    expectRefused('owner cancel after release refused', await h.op(owner, OP.cancel, GAS), ERR.notActive);
  }
}

/** 8. A payout that bounces is credited back (that beneficiary has no account yet). */
async function bouncedPayout(run: Run): Promise<void> {
  const { h, b, bounceIndex, check, expectOk } = run;
  if (bounceIndex >= 0) {
    const k = bounceIndex;
    const r = await h.op(b[k]!, OP.claim, GAS, (x) => x.storeUint(k, 8));
    expectOk('claim whose payout bounces', r);
    const bounced = r.result.transactions.find(
      (t) => t !== r.tx && t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced,
    );
    check('bounce', bounced !== undefined && computeExit(bounced).success, 'the bounced payout was not processed');
    const sk = await h.beneficiary(k);
    check(
      'bounce',
      sk.claimed === 0n && (await h.totals()).claimedTotal === 0n,
      'the bounced payout was not credited back',
    );
    await h.installSink(b[k]!);
  }
}

/** 9. Jettons: a late transfer, then every beneficiary's exact share of each jetton. */
async function jettonClaims(run: Run): Promise<void> {
  const { plan, h, n, b, masters, jcode, jettonReceived, check, expectOk, expectRefused, mint } = run;
  if (masters.length > 0) {
    for (let j = 0; j < masters.length; j++) {
      await mint(`late jetton ${j} deposit`, j, 333_333n);
      jettonReceived[j]! += 333_333n;
    }
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < masters.length; j++) {
        const step = `beneficiary ${i} jetton ${j} claim`;
        expectOk(step, await h.op(b[i]!, OP.claimJetton, GAS, (x) => x.storeUint(i, 8).storeUint(j, 8)), 'claimJetton');
        const due = (jettonReceived[j]! * BigInt(plan.beneficiaries[i]!.shareBps)) / 10000n;
        const got = await h.jettonBalance(jettonWalletAddress(jcode!, b[i]!, masters[j]!));
        check(step, got === due, `received ${got} jettons, expected ${due}`);
      }
    }
    expectRefused(
      'second jetton claim refused',
      await h.op(b[0]!, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(0, 8)),
      ERR.nothingToClaim,
    );
    expectRefused(
      'claim of an unknown jetton refused',
      await h.op(b[0]!, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(masters.length, 8)),
      ERR.unknownJetton,
    );
  }
}

/** 10. Every beneficiary claims an exact amount (tracked here, compared with the get-methods at the end). */
async function finalClaims(run: Run): Promise<void> {
  const { plan, h, n, b, check, expectOk, expectRefused } = run;
  const claimed = plan.beneficiaries.map(() => 0n);
  let claimedTotal = 0n;
  // the clock stands still from here on, so the rent reserve held back does too
  const reserve = (await h.reserve()).now;
  for (let i = 0; i < n; i++) {
    const step = `beneficiary ${i} claim`;
    const balance = await h.balance();
    const r = await h.op(b[i]!, OP.claim, GAS, (x) => x.storeUint(i, 8));
    expectOk(step, r, 'claim');
    let avail = balance - storageFee(r.tx) - reserve;
    if (avail < 0n) avail = 0n;
    let expected = ((avail + claimedTotal) * BigInt(plan.beneficiaries[i]!.shareBps)) / 10000n - claimed[i]!;
    if (expected > avail) expected = avail;
    check(step, expected > 0n, 'nothing was due');
    claimed[i]! += expected;
    claimedTotal += expected;
    const gasLeft = GAS - computeExit(r.tx).gasFees - actionFwdFees(r.tx);
    const out = r.tx.outMessages.get(0);
    const sent = out && out.info.type === 'internal' && out.info.dest.equals(b[i]!) ? out.info.value.coins : -1n;
    check(
      step,
      sent === expected + gasLeft,
      `payout ${sent} is not the share ${expected} plus the unused gas ${gasLeft}`,
    );
  }
  expectRefused(
    'second claim with nothing left refused',
    await h.op(b[0]!, OP.claim, GAS, (x) => x.storeUint(0, 8)),
    ERR.nothingToClaim,
  );
  const end = await h.totals();
  const finalShares = await h.shares();
  check(
    'final',
    finalShares.every((s, i) => s.claimed === claimed[i]),
    'get_shares does not show the amounts paid',
  );
  check('final', end.claimedTotal === claimedTotal, 'claims do not add up');
  check('final', end.available <= BigInt(n), `undistributed remainder ${end.available} exceeds rounding`);
  check(
    'final',
    (await h.balance()) >= reserve && (await h.reserve()).now === reserve,
    'the storage reserve was spent',
  );
}

async function approveAll(
  plan: TonPlanData,
  h: TonHarness,
  expectOk: (step: string, r: SentOp, fee?: string) => void,
  expectRefused: (step: string, r: SentOp, code: number) => void,
  check: (step: string, ok: boolean, why: string) => void,
): Promise<void> {
  const g = plan.guardians!;
  for (let i = 0; i < g.threshold; i++) {
    check('guardians approve', (await h.state()) === STATE.active, `released after only ${i} approvals`);
    expectOk(
      `guardian ${i} approve`,
      await h.op(g.addresses[i]!, OP.approve, GAS, (x) => x.storeUint(i, 8)),
      'approve',
    );
    if (i === 0 && g.threshold > 1) {
      expectRefused(
        'double approve refused',
        await h.op(g.addresses[0]!, OP.approve, GAS, (x) => x.storeUint(0, 8)),
        ERR.alreadyVoted,
      );
    }
  }
  // The quorum proposes; the release waits for the owner's silence.
  check(
    'guardians approve',
    (await h.state()) === STATE.active,
    "released at the quorum, without waiting for the owner's silence",
  );
  const { releaseAt } = await h.guardians();
  check(
    'guardians approve',
    releaseAt === h.now + guardianWaitSeconds(g),
    'the early release does not wait for the owner',
  );
  h.now = releaseAt;
  check('guardians approve', (await h.state()) === STATE.released, "not released after the owner's silence");
}

export function formatFees(fees: Record<string, bigint>): Record<string, string> {
  return Object.fromEntries(Object.entries(fees).map(([k, v]) => [k, ton(v)]));
}

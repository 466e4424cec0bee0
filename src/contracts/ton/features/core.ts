import { CLAIM_WINDOW_SECONDS, ERR, OP, STATE } from '../codes.js';
import type { FuncModule } from '../func-model.js';
import { fn, hex, iff, snake } from '../func-helpers.js';
import { templateId, TON_MAX_BENEFICIARIES, type TonShape } from '../shape.js';
import { guardianProofOfLife } from './guardians.js';
import { unlistedBounce } from './unlisted.js';

/** Opcodes, error codes, states and the estate's limits. */
export function addCoreConstants(m: FuncModule): void {
  for (const [k, v] of Object.entries(OP)) m.consts.push({ name: `op::${snake(k)}`, value: hex(v) });
  for (const [k, v] of Object.entries(ERR)) m.consts.push({ name: `err::${snake(k)}`, value: String(v) });
  for (const [k, v] of Object.entries(STATE)) m.consts.push({ name: `state::${k}`, value: String(v) });
  m.consts.push({
    name: 'claim_window',
    value: String(CLAIM_WINDOW_SECONDS),
    comment: 'seconds of rent the reserve never decays below',
  });
  m.consts.push({ name: 'max_beneficiaries', value: String(TON_MAX_BENEFICIARIES) });
}

/** The template, last among the constants. */
export function addTemplateConstant(m: FuncModule, shape: TonShape): void {
  m.consts.push({ name: 'template_id', value: String(templateId(shape.template)), comment: shape.template });
}

/**
 * The contract's storage, loaded into globals and saved back.
 *
 * Storage (c4), the same for every shape (see data.ts):
 *   owner:MsgAddress state:uint8 last_checkin:uint64 interval:uint32 grace:uint32
 *   reserve:uint64 rent_rate:uint64 rent_step:uint64 rent_count:uint8
 *   claimed_total:Coins count:uint8 beneficiaries:(HashmapE 8 Beneficiary)
 *   guardians:(Maybe ^Guardians) jettons:(Maybe ^Jettons) unlisted_count:uint8 unlisted:(HashmapE 256 Coins)
 *   Beneficiary = address:MsgAddress share_bps:uint16 claimed:Coins
 *   Guardians   = threshold:uint8 count:uint8 approvals:uint16 vetoes:uint16 release_at:uint64 postponed:uint8 wait:uint32 max_vetoes:uint8 (HashmapE 8 MsgAddress)
 *                 ;; release_at: when the guardians' early release takes effect (0 none); postponed: vetoes since the owner's last sign of life;
 *                 ;; wait, max_vetoes: the plan's seconds of the owner's silence before that release, and veto bound
 *   Jettons     = count:uint8 (HashmapE 8 Jetton) claims:(HashmapE 16 Coins)   ;; claims key: beneficiary << 8 | jetton
 *   Jetton      = master:MsgAddress wallet:MsgAddress received:Coins claimed:Coins   ;; wallet addr_none until discovered
 *   unlisted: amount notified by a basechain jetton wallet (key: its account id) that is not one of our listed
 *             jettons' wallets, not yet shared or returned; at most max_unlisted records (see features/unlisted.ts)
 *
 * `last_checkin` = 0 until the owner's first message, which starts the clock: the StateInit is public (it follows
 * from the plan), so anyone can deploy it, but a deployment by anyone else starts nothing (no deadline runs, nothing
 * can be claimed, guardians cannot act). Every owner action (check-in, update, withdrawal, deposit) moves the clock.
 * `reserve` (nanotons) is kept out of the estate at each check-in and decays at
 * `rent_rate` nanotons per 65536 s, the rent the network takes from the balance
 * (see rent.ts): rent after the last check-in is paid by the reserve, not the heirs. The rate is the rent of the
 * largest state reachable with `rent_count` beneficiaries; an update to more beneficiaries raises the rate by
 * `rent_step` per beneficiary added and the reserve in proportion, and the owner attaches the difference.
 */
export function addStorage(m: FuncModule): void {
  const g = (type: string, name: string) => m.globals.push({ type, name });
  g('slice', 'ctx_owner');
  g('int', 'ctx_state');
  g('int', 'ctx_last');
  g('int', 'ctx_interval');
  g('int', 'ctx_grace');
  g('int', 'ctx_reserve');
  g('int', 'ctx_rent_rate');
  g('int', 'ctx_rent_step');
  g('int', 'ctx_rent_count');
  g('int', 'ctx_claimed_total');
  g('int', 'ctx_count');
  g('cell', 'ctx_benefs');
  g('cell', 'ctx_guardians');
  g('cell', 'ctx_jettons');
  g('int', 'ctx_unlisted_count');
  g('cell', 'ctx_unlisted');

  m.functions.push(
    fn(
      'load_data',
      '()',
      [],
      ['impure', 'inline'],
      [
        'slice ds = get_data().begin_parse()',
        'ctx_owner = ds~load_msg_addr()',
        'ctx_state = ds~load_uint(8)',
        'ctx_last = ds~load_uint(64)',
        'ctx_interval = ds~load_uint(32)',
        'ctx_grace = ds~load_uint(32)',
        'ctx_reserve = ds~load_uint(64)',
        'ctx_rent_rate = ds~load_uint(64)',
        'ctx_rent_step = ds~load_uint(64)',
        'ctx_rent_count = ds~load_uint(8)',
        'ctx_claimed_total = ds~load_coins()',
        'ctx_count = ds~load_uint(8)',
        'ctx_benefs = ds~load_dict()',
        'ctx_guardians = ds~load_dict()',
        'ctx_jettons = ds~load_dict()',
        'ctx_unlisted_count = ds~load_uint(8)',
        'ctx_unlisted = ds~load_dict()',
        'ds.end_parse()',
      ],
    ),
    fn(
      'save_data',
      '()',
      [],
      ['impure', 'inline'],
      [
        'set_data(begin_cell().store_slice(ctx_owner).store_uint(ctx_state, 8).store_uint(ctx_last, 64)' +
          '.store_uint(ctx_interval, 32).store_uint(ctx_grace, 32).store_uint(ctx_reserve, 64).store_uint(ctx_rent_rate, 64)' +
          '.store_uint(ctx_rent_step, 64).store_uint(ctx_rent_count, 8).store_coins(ctx_claimed_total)' +
          '.store_uint(ctx_count, 8).store_dict(ctx_benefs).store_dict(ctx_guardians).store_dict(ctx_jettons)' +
          '.store_uint(ctx_unlisted_count, 8).store_dict(ctx_unlisted).end_cell())',
      ],
    ),
  );
}

/** Sending TON, the rent reserve, what the estate holds and owes, and the owner check. */
export function addCoreHelpers(m: FuncModule): void {
  m.functions.push(
    fn(
      'send_value',
      '()',
      [
        ['slice', 'to'],
        ['int', 'amount'],
        ['int', 'mode'],
        ['cell', 'body'],
      ],
      ['impure', 'inline'],
      [
        'send_raw_message(begin_cell().store_uint(0x18, 6).store_slice(to).store_coins(amount)' +
          '.store_uint(1, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_ref(body).end_cell(), mode)',
      ],
    ),
    fn(
      'reserve',
      'int',
      [],
      ['inline'],
      [
        {
          kind: 'comment',
          text: 'The rent since the last check-in was taken from the balance: the reserve paid it, not the estate.',
        },
        'int left = ctx_reserve - muldiv(ctx_rent_rate, now() - ctx_last, 65536)',
        'return max(left, muldiv(ctx_rent_rate, claim_window, 65536))',
      ],
      'Nanotons held back for storage rent now: the reserve less the rent since the last check-in, never below a claim window of rent.',
    ),
    fn(
      'available',
      'int',
      [['int', 'balance']],
      ['inline'],
      ['int a = balance - reserve()', iff('a < 0', ['a = 0']), 'return a'],
      'What the contract holds for the estate: its balance less the storage reserve.',
    ),
    fn(
      'entitlement',
      'int',
      [
        ['int', 'available'],
        ['int', 'share'],
        ['int', 'claimed'],
      ],
      ['inline'],
      [
        {
          kind: 'comment',
          text: 'Share of everything received so far (claims paid plus what is held), less what was paid.',
        },
        'int amount = muldiv(available + ctx_claimed_total, share, 10000) - claimed',
        'return min(max(amount, 0), available)',
      ],
    ),
    fn(
      'require_owner',
      '()',
      [['slice', 'sender']],
      ['impure', 'inline'],
      ['throw_unless(err::not_owner, equal_slices(sender, ctx_owner))'],
    ),
  );
}

/** Proof of life, and the owner's window for changes. */
export function addOwnerWindow(m: FuncModule, shape: TonShape): void {
  m.functions.push(
    fn(
      'prove_life',
      '()',
      [],
      ['impure', 'inline'],
      ['ctx_last = now()', ...(shape.guardians ? guardianProofOfLife : [])],
      'Any owner action is proof of life: the deadline becomes now plus the interval.',
    ),
    fn(
      'require_owner_window',
      '()',
      [['slice', 'sender']],
      ['impure', 'inline'],
      [
        'require_owner(sender)',
        'throw_unless(err::not_active, ctx_state == state::active)',
        'throw_if(err::deadline_passed, released?())',
        'throw_unless(err::deadline_passed, before_deadline?())',
        'prove_life()',
      ],
      'Owner operations are allowed while active and before the deadline; each is proof of life.',
    ),
  );
}

/** Bounced payouts, claims and the owner's update of the beneficiaries. */
export function addCoreHandlers(m: FuncModule, shape: TonShape): void {
  m.functions.push(
    fn(
      'on_bounce',
      '()',
      [
        ['slice', 'sender'],
        ['slice', 'body'],
      ],
      ['impure', 'inline'],
      [
        { kind: 'comment', text: 'A payout that bounced is owed again: undo its bookkeeping.' },
        'body~skip_bits(32)',
        iff('body.slice_bits() < 32 + 64 + 8 + 4', ['return ()']),
        'int op = body~load_uint(32)',
        iff('op == op::payout', [
          'body~skip_bits(64)',
          'int index = body~load_uint(8)',
          'int amount = body~load_coins()',
          '(slice entry, int found) = ctx_benefs.udict_get?(8, index)',
          iff('found', [
            'slice addr = entry~load_msg_addr()',
            'int share = entry~load_uint(16)',
            'int claimed = entry~load_coins()',
            'ctx_benefs = ctx_benefs.udict_set_builder(8, index, begin_cell().store_slice(addr).store_uint(share, 16).store_coins(claimed - amount))',
            'ctx_claimed_total -= amount',
            'save_data()',
          ]),
        ]),
        iff('op == op::jetton_transfer', [
          {
            kind: 'comment',
            text: 'A jetton transfer a wallet refused: an unlisted share is recorded again, a listed one restored.',
          },
          'int key = body~load_uint(64)',
          'int amount = body~load_coins()',
          unlistedBounce,
          ...(shape.jettons ? ['on_jetton_bounce(sender, key, amount)'] : []),
        ]),
      ],
    ),
    fn(
      'on_claim',
      '()',
      [
        ['slice', 'sender'],
        ['int', 'balance_before'],
        ['int', 'query_id'],
        ['slice', 'body'],
      ],
      ['impure', 'inline'],
      [
        'int index = body~load_uint(8)',
        '(slice entry, int found) = ctx_benefs.udict_get?(8, index)',
        'throw_unless(err::not_beneficiary, found)',
        'slice addr = entry~load_msg_addr()',
        'int share = entry~load_uint(16)',
        'int claimed = entry~load_coins()',
        'throw_unless(err::not_beneficiary, equal_slices(addr, sender))',
        'throw_unless(err::not_released, released?())',
        'int amount = entitlement(available(balance_before), share, claimed)',
        'throw_unless(err::nothing_to_claim, amount > 0)',
        'ctx_state = state::released',
        'ctx_benefs = ctx_benefs.udict_set_builder(8, index, begin_cell().store_slice(addr).store_uint(share, 16).store_coins(claimed + amount))',
        'ctx_claimed_total += amount',
        { kind: 'comment', text: 'Bounceable; mode 64 also returns what is left of the gas the claimant attached.' },
        'send_value(sender, amount, 64, begin_cell().store_uint(op::payout, 32).store_uint(query_id, 64).store_uint(index, 8).store_coins(amount).end_cell())',
        'save_data()',
      ],
    ),
    fn(
      'on_update',
      '()',
      [
        ['slice', 'body'],
        ['int', 'msg_value'],
      ],
      ['impure', 'inline'],
      [
        {
          kind: 'comment',
          text: 'New beneficiaries: ^[count:uint8 (HashmapE 8 (address share_bps))], shares summing to 10000.',
        },
        'slice ns = body~load_ref().begin_parse()',
        'int count = ns~load_uint(8)',
        'cell dict = ns~load_dict()',
        'throw_unless(err::bad_shares, (count > 0) & (count <= max_beneficiaries))',
        'cell fresh = new_dict()',
        'int sum = 0',
        'int i = 0',
        {
          kind: 'while',
          cond: 'i < count',
          body: [
            '(slice entry, int found) = dict.udict_get?(8, i)',
            'throw_unless(err::bad_shares, found)',
            'slice addr = entry~load_msg_addr()',
            '(int wc, _) = parse_std_addr(addr)',
            'throw_unless(err::bad_shares, (wc == 0) | (wc == -1))',
            'int share = entry~load_uint(16)',
            'throw_unless(err::bad_shares, share > 0)',
            'sum += share',
            'fresh = fresh.udict_set_builder(8, i, begin_cell().store_slice(addr).store_uint(share, 16).store_coins(0))',
            'i += 1',
          ],
        },
        'throw_unless(err::bad_shares, sum == 10000)',
        iff('count > ctx_rent_count', [
          {
            kind: 'comment',
            text: 'More beneficiaries than the reserve was reckoned for: the rent rate rises by rent_step per beneficiary added,',
          },
          {
            kind: 'comment',
            text: 'the reserve in proportion, and the owner attaches the difference (so the estate does not pay for it).',
          },
          'int rate = ctx_rent_rate + (count - ctx_rent_count) * ctx_rent_step',
          'int grown = muldiv(ctx_reserve, rate, max(ctx_rent_rate, 1)) + 1',
          'throw_unless(err::insufficient_funds, msg_value >= grown - ctx_reserve)',
          'ctx_reserve = grown',
          'ctx_rent_rate = rate',
          'ctx_rent_count = count',
        ]),
        'ctx_benefs = fresh',
        'ctx_count = count',
        'save_data()',
      ],
    ),
  );
}

import { CLAIM_WINDOW_SECONDS, ERR, OP, STATE } from '../codes.js';
import type { FuncModule, Stmt } from '../func-model.js';
import { fn, hex, iff, snake } from '../func-helpers.js';
import { templateId, TON_MAX_BENEFICIARIES, type TonShape } from '../shape.js';
import { guardianProofOfLife, guardianReceiveOps } from './guardians.js';
import { jettonBounce, jettonCancel, jettonReceiveOps, returnJettonsOp } from './jettons.js';

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
 *   guardians:(Maybe ^Guardians) jettons:(Maybe ^Jettons)
 *   Beneficiary = address:MsgAddress share_bps:uint16 claimed:Coins
 *   Guardians   = threshold:uint8 count:uint8 approvals:uint16 vetoes:uint16 release_at:uint64 postponed:uint8 (HashmapE 8 MsgAddress)
 *                 ;; release_at: when the guardians' early release takes effect (0 none); postponed: vetoes since the owner's last sign of life
 *   Jettons     = count:uint8 (HashmapE 8 Jetton) claims:(HashmapE 16 Coins)   ;; claims key: beneficiary << 8 | jetton
 *   Jetton      = master:MsgAddress wallet:MsgAddress received:Coins claimed:Coins   ;; wallet addr_none until discovered
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
          '.store_uint(ctx_count, 8).store_dict(ctx_benefs).store_dict(ctx_guardians).store_dict(ctx_jettons).end_cell())',
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
        ...(shape.jettons ? [jettonBounce] : []),
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

/** The owner's messages: check-in, update, withdraw, cancel, release (and, with jettons, their return after a cancel). */
function ownerOps(shape: TonShape): Stmt[] {
  return [
    iff('op == op::check_in', [
      'require_owner(sender)',
      'throw_unless(err::not_active, ctx_state == state::active)',
      'throw_if(err::deadline_passed, released?())',
      'prove_life()',
      'save_data()',
      'return ()',
    ]),
    iff('op == op::update', ['require_owner_window(sender)', 'on_update(in_msg_body, msg_value)', 'return ()']),
    iff('op == op::withdraw', [
      'require_owner_window(sender)',
      'int amount = in_msg_body~load_coins()',
      'throw_unless(err::insufficient_funds, amount <= available(my_balance - msg_value))',
      'save_data()',
      'send_value(sender, amount, 64, begin_cell().store_uint(op::withdraw, 32).store_uint(query_id, 64).end_cell())',
      'return ()',
    ]),
    iff('op == op::cancel', [
      'require_owner_window(sender)',
      'ctx_state = state::cancelled',
      ...(shape.jettons ? jettonCancel : []),
      'save_data()',
      'send_value(sender, 0, 128, begin_cell().store_uint(op::cancel, 32).store_uint(query_id, 64).end_cell())',
      'return ()',
    ]),
    ...(shape.jettons ? [returnJettonsOp] : []),
    iff('op == op::release', [
      'require_owner(sender)',
      'throw_unless(err::not_active, ctx_state == state::active)',
      'ctx_state = state::released',
      'save_data()',
      'return ()',
    ]),
  ];
}

/** Every message: bounces, the owner's first message, deposits, claims, then each feature's messages. */
export function addReceive(m: FuncModule, shape: TonShape): void {
  m.functions.push(
    fn(
      'recv_internal',
      '()',
      [
        ['int', 'my_balance'],
        ['int', 'msg_value'],
        ['cell', 'in_msg_full'],
        ['slice', 'in_msg_body'],
      ],
      ['impure'],
      [
        'slice cs = in_msg_full.begin_parse()',
        'int flags = cs~load_uint(4)',
        'load_data()',
        'slice sender = cs~load_msg_addr()',
        iff('flags & 1', ['on_bounce(sender, in_msg_body)', 'return ()']),
        iff('(ctx_last == 0) & equal_slices(sender, ctx_owner)', [
          {
            kind: 'comment',
            text: "The owner's first message starts the clock; a deployment by anyone else starts nothing.",
          },
          'ctx_last = now()',
          'save_data()',
          ...(shape.jettons ? ['discover_wallets()'] : []),
        ]),
        'int op = 0',
        iff('in_msg_body.slice_bits() >= 32', ['op = in_msg_body~load_uint(32)']),
        iff('(op == 0) | (op == op::deposit)', [
          {
            kind: 'comment',
            text: 'Plain transfers, comments and deposits add to the estate while it is not cancelled.',
          },
          'throw_if(err::not_active, ctx_state == state::cancelled)',
          iff('equal_slices(sender, ctx_owner) & (ctx_state == state::active) & (~ released?())', [
            { kind: 'comment', text: "The owner's deposit is proof of life." },
            'prove_life()',
            'save_data()',
          ]),
          'return ()',
        ]),
        'int query_id = in_msg_body~load_uint(64)',
        iff('op == op::claim', ['on_claim(sender, my_balance - msg_value, query_id, in_msg_body)', 'return ()']),
        ...(shape.jettons ? jettonReceiveOps : []),
        ...ownerOps(shape),
        ...(shape.guardians ? guardianReceiveOps(shape) : []),
        'throw(err::unknown_op)',
      ],
    ),
  );
}

export function addGetters(m: FuncModule, shape: TonShape): void {
  m.functions.push(
    fn('get_owner', 'slice', [], ['method_id'], ['load_data()', 'return ctx_owner']),
    fn(
      'get_state',
      'int',
      [],
      ['method_id'],
      ['load_data()', iff('released?()', ['return state::released']), 'return ctx_state'],
      '0 active, 1 released (also once the deadline and grace period have passed), 2 cancelled.',
    ),
    fn(
      'get_deadline',
      'int',
      [],
      ['method_id'],
      ['load_data()', shape.deadMansSwitch ? 'return deadline()' : 'return 0'],
      'Unix time of the deadline; 0 without a switch.',
    ),
    fn(
      'get_release_time',
      'int',
      [],
      ['method_id'],
      ['load_data()', shape.deadMansSwitch ? 'return release_time()' : 'return 0'],
      'Deadline plus grace period; 0 without a switch.',
    ),
    fn('get_last_check_in', 'int', [], ['method_id'], ['load_data()', 'return ctx_last']),
    fn(
      'get_interval',
      '(int, int)',
      [],
      ['method_id'],
      ['load_data()', 'return (ctx_interval, ctx_grace)'],
      'Interval and grace period in seconds.',
    ),
    fn(
      'get_shares',
      'tuple',
      [],
      ['method_id'],
      [
        'load_data()',
        'tuple out = empty_tuple()',
        'int i = 0',
        {
          kind: 'while',
          cond: 'i < ctx_count',
          body: [
            '(slice entry, _) = ctx_benefs.udict_get?(8, i)',
            'slice addr = entry~load_msg_addr()',
            'int share = entry~load_uint(16)',
            'out~tpush(triple(addr, share, entry~load_coins()))',
            'i += 1',
          ],
        },
        'return out',
      ],
      'One [address, share_bps, claimed] triple per beneficiary, by index.',
    ),
    fn(
      'get_beneficiary',
      '(slice, int, int)',
      [['int', 'index']],
      ['method_id'],
      [
        'load_data()',
        '(slice entry, int found) = ctx_benefs.udict_get?(8, index)',
        'throw_unless(err::not_beneficiary, found)',
        'return (entry~load_msg_addr(), entry~load_uint(16), entry~load_coins())',
      ],
      'Address, share in basis points and amount claimed of beneficiary `index`.',
    ),
    fn(
      'get_claimable',
      'int',
      [['int', 'index']],
      ['method_id'],
      [
        'load_data()',
        '(slice entry, int found) = ctx_benefs.udict_get?(8, index)',
        iff('~ found', ['return 0']),
        'entry~load_msg_addr()',
        'int share = entry~load_uint(16)',
        'return entitlement(available(my_balance()), share, entry~load_coins())',
      ],
      'What beneficiary `index` could claim now, if the estate were released.',
    ),
    fn(
      'get_totals',
      '(int, int)',
      [],
      ['method_id'],
      ['load_data()', 'return (ctx_claimed_total, available(my_balance()))'],
      'Paid out so far, and held for the estate.',
    ),
    fn(
      'get_reserve',
      '(int, int, int, int, int)',
      [],
      ['method_id'],
      ['load_data()', 'return (reserve(), ctx_reserve, ctx_rent_rate, ctx_rent_step, ctx_rent_count)'],
      'Rent reserve held back now, the reserve set at each check-in, the rent rate (nanotons per 65536 s), its rise per beneficiary added, and the beneficiaries it is reckoned for.',
    ),
    fn('get_template', 'int', [], ['method_id'], ['return template_id']),
  );
}

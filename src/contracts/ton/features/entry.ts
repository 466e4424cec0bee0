/** The contract's entry points: recv_internal, which routes every message, and the get-methods (helpers: ./core.ts). */
import type { FuncModule, Stmt } from '../func-model.js';
import { fn, iff } from '../func-helpers.js';
import type { TonShape } from '../shape.js';
import { guardianReceiveOps } from './guardians.js';
import { jettonCancel, jettonReceiveOps, returnJettonsOp } from './jettons.js';
import { unlistedReceiveOps } from './unlisted.js';

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
        ...unlistedReceiveOps(shape),
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

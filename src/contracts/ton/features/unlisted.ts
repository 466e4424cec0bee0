import { JETTON_FEE_MARGIN, JETTON_MESSAGE_VALUE, TON_MAX_UNLISTED, UNLISTED_QUERY } from '../codes.js';
import type { FuncModule, Stmt } from '../func-model.js';
import { fn, hex, iff } from '../func-helpers.js';
import type { TonShape } from '../shape.js';

/*
 * Jettons the plan does not list (an airdrop after the deadline, a jetton the owner forgot to list). The contract
 * cannot read a jetton balance, but a transfer notification names its sender W, which cannot be forged: the contract
 * only ever answers W with transfer orders of the notified amount. A genuine jetton wallet then pays the heirs; a fake
 * W receives orders addressed to itself, which move nothing. The estate's TON never pays for this: the transfers are
 * paid by the notification's own value, or by whoever settles a recorded notification later.
 *
 * A notification that cannot be shared at once (before the release, or too little value attached) is recorded,
 * W -> amount, in a dictionary of at most max_unlisted wallets (so the state, and the rent, stays bounded). After the
 * release anyone settles a record by paying for the transfers; before it (or after a cancel) the owner takes it back.
 */

export function addTransferConstants(m: FuncModule): void {
  m.consts.push({
    name: 'jetton_message_value',
    value: JETTON_MESSAGE_VALUE.toString(),
    comment: 'nanotons per discovery request / jetton transfer, at least',
  });
  m.consts.push({
    name: 'jetton_fee_margin',
    value: JETTON_FEE_MARGIN.toString(),
    comment: 'nanotons per message a paid request attaches for fees',
  });
  m.consts.push({
    name: 'unlisted_query',
    value: hex(UNLISTED_QUERY),
    comment: 'query id of every transfer of an unlisted jetton',
  });
  m.consts.push({
    name: 'max_unlisted',
    value: String(TON_MAX_UNLISTED),
    comment: 'unlisted wallets recorded at once',
  });
}

/** Jetton transfers, and requests paid by the caller's value (the estate's balance is reserved). */
export function addTransferHelpers(m: FuncModule): void {
  m.functions.push(
    fn(
      'send_jetton',
      '()',
      [
        ['slice', 'wallet'],
        ['int', 'value'],
        ['int', 'mode'],
        ['int', 'query_id'],
        ['int', 'amount'],
        ['slice', 'to'],
      ],
      ['impure', 'inline'],
      [
        {
          kind: 'comment',
          text: 'TEP-74 transfer: amount, destination, response destination, no custom payload, no forward TON, empty forward payload.',
        },
        'send_value(wallet, value, mode, begin_cell().store_uint(op::jetton_transfer, 32).store_uint(query_id, 64).store_coins(amount)' +
          '.store_slice(to).store_slice(to).store_uint(0, 1).store_coins(0).store_uint(0, 1).end_cell())',
      ],
    ),
    fn(
      'caller_pays',
      '()',
      [
        ['int', 'balance_before'],
        ['int', 'msg_value'],
        ['int', 'messages'],
      ],
      ['impure', 'inline'],
      [
        {
          kind: 'comment',
          text: 'The estate keeps its balance: the messages that follow can only spend what the caller attached.',
        },
        'throw_unless(err::insufficient_funds, msg_value >= messages * (jetton_message_value + jetton_fee_margin))',
        'raw_reserve(balance_before, 0)',
      ],
    ),
    fn(
      'refund_caller',
      '()',
      [['slice', 'to']],
      ['impure', 'inline'],
      [
        {
          kind: 'comment',
          text: "What is left of the caller's value (above the reserved balance) goes back to the caller.",
        },
        'send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(to).store_coins(0).store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).end_cell(), 128 + 2)',
      ],
    ),
  );
}

/** Recording, sharing and returning unlisted jettons (after the timing, owner-window and transfer helpers). */
export function addUnlistedHelpers(m: FuncModule): void {
  m.functions.push(
    fn(
      'record_unlisted',
      '()',
      [
        ['int', 'wallet'],
        ['int', 'amount'],
      ],
      ['impure', 'inline'],
      [
        '(slice r, int found) = ctx_unlisted.udict_get?(256, wallet)',
        'int held = 0',
        iff(
          'found',
          ['held = r~load_coins()'],
          ['throw_unless(err::unlisted_full, ctx_unlisted_count < max_unlisted)', 'ctx_unlisted_count += 1'],
        ),
        'ctx_unlisted = ctx_unlisted.udict_set_builder(256, wallet, begin_cell().store_coins(held + amount))',
      ],
      'Adds `amount` to what is recorded for the basechain wallet `wallet` (its account id).',
    ),
    fn(
      'take_unlisted',
      'int',
      [['int', 'wallet']],
      ['impure', 'inline'],
      [
        '(slice r, int found) = ctx_unlisted.udict_get?(256, wallet)',
        'throw_unless(err::nothing_to_claim, found)',
        '(cell rest, _) = udict_delete?(ctx_unlisted, 256, wallet)',
        'ctx_unlisted = rest',
        'ctx_unlisted_count -= 1',
        'return r~load_coins()',
      ],
      'Removes the record of `wallet` and returns its amount.',
    ),
    fn(
      'share_unlisted',
      '()',
      [
        ['slice', 'wallet'],
        ['int', 'amount'],
        ['int', 'value'],
      ],
      ['impure', 'inline'],
      [
        { kind: 'comment', text: 'One transfer order per heir, for its share of `amount`, each carrying `value`.' },
        'int i = 0',
        {
          kind: 'while',
          cond: 'i < ctx_count',
          body: [
            '(slice entry, _) = ctx_benefs.udict_get?(8, i)',
            'slice addr = entry~load_msg_addr()',
            'int part = muldiv(amount, entry~load_uint(16), 10000)',
            iff('part > 0', ['send_jetton(wallet, value, 1, unlisted_query, part, addr)']),
            'i += 1',
          ],
        },
      ],
    ),
    fn(
      'on_unlisted_notification',
      '()',
      [
        ['slice', 'sender'],
        ['int', 'amount'],
        ['int', 'balance_before'],
        ['int', 'msg_value'],
      ],
      ['impure', 'inline'],
      [
        '(int wc, int wallet) = parse_std_addr(sender)',
        iff('(wc != 0) | (amount <= 0)', ['return ()']),
        iff('released?() & (msg_value >= ctx_count * (jetton_message_value + jetton_fee_margin))', [
          { kind: 'comment', text: 'Released and paid for by the notification itself: shared at once.' },
          'raw_reserve(balance_before, 0)',
          'share_unlisted(sender, amount, jetton_message_value)',
          'return ()',
        ]),
        'record_unlisted(wallet, amount)',
        'save_data()',
      ],
      'A notification from a wallet that is not one of our listed jettons: shared if it pays for it, else recorded.',
    ),
  );
}

/** In on_bounce: a transfer of an unlisted jetton that its wallet refused is recorded again for that wallet. */
export const unlistedBounce: Stmt = iff('key == unlisted_query', [
  '(int wc, int wallet) = parse_std_addr(sender)',
  iff('wc == 0', ['record_unlisted(wallet, amount)', 'save_data()']),
  'return ()',
]);

/** In recv_internal: transfer notifications (listed jettons first), and settling a recorded unlisted jetton. */
export function unlistedReceiveOps(shape: TonShape): Stmt[] {
  return [
    iff('op == op::transfer_notification', [
      'int amount = in_msg_body~load_coins()',
      ...(shape.jettons ? [iff('credit_listed?(sender, amount)', ['return ()'])] : []),
      'on_unlisted_notification(sender, amount, my_balance - msg_value, msg_value)',
      'return ()',
    ]),
    iff('op == op::share_unlisted', [
      'int wallet = in_msg_body~load_uint(256)',
      'slice to = begin_cell().store_uint(4, 3).store_int(0, 8).store_uint(wallet, 256).end_cell().begin_parse()',
      iff(
        'equal_slices(sender, ctx_owner) & (~ released?())',
        [
          {
            kind: 'comment',
            text: 'Before the release, or after a cancel, the owner takes the jettons back (paying); while active it is proof of life.',
          },
          'int amount = take_unlisted(wallet)',
          iff('ctx_state == state::active', ['prove_life()']),
          'caller_pays(my_balance - msg_value, msg_value, 1)',
          'send_jetton(to, msg_value - jetton_fee_margin, 1, unlisted_query, amount, sender)',
        ],
        [
          {
            kind: 'comment',
            text: 'After the release anyone may settle a record for the heirs; each transfer forwards its part of the value.',
          },
          'throw_unless(err::not_released, released?())',
          'ctx_state = state::released',
          'int amount = take_unlisted(wallet)',
          'caller_pays(my_balance - msg_value, msg_value, ctx_count)',
          'share_unlisted(to, amount, msg_value / ctx_count - jetton_fee_margin)',
        ],
      ),
      'save_data()',
      'refund_caller(sender)',
      'return ()',
    ]),
  ];
}

export function addUnlistedGetters(m: FuncModule): void {
  m.functions.push(
    fn(
      'get_unlisted',
      '(int, int)',
      [['int', 'wallet']],
      ['method_id'],
      [
        'load_data()',
        '(slice r, int found) = ctx_unlisted.udict_get?(256, wallet)',
        iff('found', ['return (ctx_unlisted_count, r~load_coins())']),
        'return (ctx_unlisted_count, 0)',
      ],
      'Unlisted wallets recorded, and the amount recorded for the basechain wallet with account id `wallet`.',
    ),
  );
}

import { RETURN_QUERY_BASE } from '../codes.js';
import type { FuncFunction, FuncModule, Stmt } from '../func-model.js';
import { fn, hex, iff } from '../func-helpers.js';

/*
 * Jettons: each listed jetton's wallet is found through its master (TEP-89),
 * transfers are credited from our own wallets' notifications, each
 * beneficiary claims its share per jetton, and cancel returns what is held.
 * A claim or return that bounces is restored; discovery and returns asked
 * for again are paid by the caller's message value.
 */

export function addJettonConstants(m: FuncModule): void {
  m.consts.push({
    name: 'return_query_base',
    value: hex(RETURN_QUERY_BASE),
    comment: 'query id of a jetton returned on cancel: base + jetton index',
  });
}

/** Storage accessors and helpers of the jetton list, then discovery, then transfers (FunC needs each defined before use). */
export function addJettonHelpers(m: FuncModule): void {
  m.functions.push(...jettonState(), ...discovery(), ...transfers());
}

function jettonState(): FuncFunction[] {
  return [
    fn(
      'jetton_state',
      '(int, cell, cell)',
      [],
      ['inline'],
      ['slice js = ctx_jettons.begin_parse()', 'return (js~load_uint(8), js~load_dict(), js~load_dict())'],
    ),
    fn(
      'set_jettons',
      '()',
      [
        ['int', 'count'],
        ['cell', 'entries'],
        ['cell', 'claims'],
      ],
      ['impure', 'inline'],
      ['ctx_jettons = begin_cell().store_uint(count, 8).store_dict(entries).store_dict(claims).end_cell()'],
    ),
    fn(
      'jetton_entry',
      '(slice, slice, int, int)',
      [
        ['cell', 'entries'],
        ['int', 'j'],
      ],
      ['inline'],
      [
        '(slice e, int found) = entries.udict_get?(8, j)',
        'throw_unless(err::unknown_jetton, found)',
        'return (e~load_msg_addr(), e~load_msg_addr(), e~load_coins(), e~load_coins())',
      ],
    ),
    fn(
      'pack_jetton',
      'builder',
      [
        ['slice', 'master'],
        ['slice', 'wallet'],
        ['int', 'received'],
        ['int', 'claimed'],
      ],
      ['inline'],
      ['return begin_cell().store_slice(master).store_slice(wallet).store_coins(received).store_coins(claimed)'],
    ),
    fn(
      'wallet_known?',
      'int',
      [['slice', 'wallet']],
      ['inline'],
      ['return wallet.slice_bits() > 2'],
      'addr_none (2 bits) until the master has told us our wallet.',
    ),
    fn(
      'jetton_claimed',
      'int',
      [
        ['cell', 'claims'],
        ['int', 'key'],
      ],
      ['inline'],
      ['(slice c, int found) = claims.udict_get?(16, key)', iff('found', ['return c~load_coins()']), 'return 0'],
    ),
  ];
}

/** Finding our wallet of each jetton, paid by the caller when asked again. */
function discovery(): FuncFunction[] {
  return [
    fn(
      'pending_wallets',
      'int',
      [],
      ['inline'],
      [
        '(int count, cell entries, _) = jetton_state()',
        'int n = 0',
        'int j = 0',
        {
          kind: 'while',
          cond: 'j < count',
          body: [
            '(_, slice wallet, _, _) = jetton_entry(entries, j)',
            iff('~ wallet_known?(wallet)', ['n += 1']),
            'j += 1',
          ],
        },
        'return n',
      ],
      'Jettons whose wallet is still unknown.',
    ),
    fn(
      'pending_returns',
      'int',
      [],
      ['inline'],
      [
        '(int count, cell entries, _) = jetton_state()',
        'int n = 0',
        'int j = 0',
        {
          kind: 'while',
          cond: 'j < count',
          body: [
            '(_, slice wallet, int received, int claimed_all) = jetton_entry(entries, j)',
            iff('wallet_known?(wallet) & (received > claimed_all)', ['n += 1']),
            'j += 1',
          ],
        },
        'return n',
      ],
      'Jettons still held (to return on cancel).',
    ),
    fn(
      'discover_wallets',
      '()',
      [],
      ['impure', 'inline'],
      [
        {
          kind: 'comment',
          text: "TEP-89: ask each jetton master for this contract's wallet address; query_id carries the jetton index.",
        },
        '(int count, cell entries, _) = jetton_state()',
        'int j = 0',
        {
          kind: 'while',
          cond: 'j < count',
          body: [
            '(slice master, slice wallet, _, _) = jetton_entry(entries, j)',
            iff('~ wallet_known?(wallet)', [
              'send_value(master, jetton_message_value, 1, begin_cell().store_uint(op::provide_wallet_address, 32).store_uint(j, 64).store_slice(my_address()).store_uint(0, 1).end_cell())',
            ]),
            'j += 1',
          ],
        },
      ],
    ),
    fn(
      'on_take_wallet',
      '()',
      [
        ['slice', 'sender'],
        ['int', 'j'],
        ['slice', 'body'],
      ],
      ['impure', 'inline'],
      [
        '(int count, cell entries, cell claims) = jetton_state()',
        '(slice master, slice wallet, int received, int claimed) = jetton_entry(entries, j)',
        'throw_unless(err::unknown_jetton, equal_slices(master, sender))',
        iff('~ wallet_known?(wallet)', [
          'entries = entries.udict_set_builder(8, j, pack_jetton(master, body~load_msg_addr(), received, claimed))',
          'set_jettons(count, entries, claims)',
          'save_data()',
        ]),
      ],
      'The master answers with our wallet: only the master of jetton j may set it, once.',
    ),
  ];
}

/** Credits, claims, bounces and returns of jetton transfers. */
function transfers(): FuncFunction[] {
  return [
    fn(
      'credit_listed?',
      'int',
      [
        ['slice', 'sender'],
        ['int', 'amount'],
      ],
      ['impure', 'inline'],
      [
        { kind: 'comment', text: 'Credited to a listed jetton only when it comes from one of our own wallets of it.' },
        '(int count, cell entries, cell claims) = jetton_state()',
        'int j = 0',
        {
          kind: 'while',
          cond: 'j < count',
          body: [
            '(slice master, slice wallet, int received, int claimed) = jetton_entry(entries, j)',
            iff('equal_slices(wallet, sender)', [
              'set_jettons(count, entries.udict_set_builder(8, j, pack_jetton(master, wallet, received + amount, claimed)), claims)',
              'save_data()',
              'return -1',
            ]),
            'j += 1',
          ],
        },
        'return 0',
      ],
      'Whether the notification came from our wallet of a listed jetton (then it is credited).',
    ),
    fn(
      'on_claim_jetton',
      '()',
      [
        ['slice', 'sender'],
        ['slice', 'body'],
      ],
      ['impure', 'inline'],
      [
        'int index = body~load_uint(8)',
        'int j = body~load_uint(8)',
        '(slice entry, int found) = ctx_benefs.udict_get?(8, index)',
        'throw_unless(err::not_beneficiary, found)',
        'throw_unless(err::not_beneficiary, equal_slices(entry~load_msg_addr(), sender))',
        'int share = entry~load_uint(16)',
        'throw_unless(err::not_released, released?())',
        '(int count, cell entries, cell claims) = jetton_state()',
        '(slice master, slice wallet, int received, int claimed_all) = jetton_entry(entries, j)',
        'throw_unless(err::unknown_jetton, wallet_known?(wallet))',
        'int key = (index << 8) | j',
        'int mine = jetton_claimed(claims, key)',
        'int amount = muldiv(received, share, 10000) - mine',
        'throw_unless(err::nothing_to_claim, amount > 0)',
        'ctx_state = state::released',
        'claims = claims.udict_set_builder(16, key, begin_cell().store_coins(mine + amount))',
        'set_jettons(count, entries.udict_set_builder(8, j, pack_jetton(master, wallet, received, claimed_all + amount)), claims)',
        {
          kind: 'comment',
          text: 'Mode 64: the TON the claimant attached pays the jetton transfer; the query id names the claim for a bounce.',
        },
        'send_jetton(wallet, 0, 64, key, amount, sender)',
        'save_data()',
      ],
      'A beneficiary claims its share of jetton j (everything received so far, late transfers included).',
    ),
    fn(
      'on_jetton_bounce',
      '()',
      [
        ['slice', 'sender'],
        ['int', 'key'],
        ['int', 'amount'],
      ],
      ['impure', 'inline'],
      [
        '(int count, cell entries, cell claims) = jetton_state()',
        'int j = key & 255',
        iff('j >= count', ['return ()']),
        '(slice master, slice wallet, int received, int claimed_all) = jetton_entry(entries, j)',
        { kind: 'comment', text: 'Only our own wallet of that jetton can bounce its transfer back.' },
        iff('~ equal_slices(wallet, sender)', ['return ()']),
        iff('key >= return_query_base', [
          {
            kind: 'comment',
            text: 'A return to the owner on cancel was refused: the jettons are held again, and `return_jettons` retries.',
          },
          'set_jettons(count, entries.udict_set_builder(8, j, pack_jetton(master, wallet, received + amount, claimed_all)), claims)',
          'save_data()',
          'return ()',
        ]),
        '(slice c, int found) = claims.udict_get?(16, key)',
        iff('found', [
          'claims = claims.udict_set_builder(16, key, begin_cell().store_coins(c~load_coins() - amount))',
          'set_jettons(count, entries.udict_set_builder(8, j, pack_jetton(master, wallet, received, claimed_all - amount)), claims)',
          'save_data()',
        ]),
      ],
      'A jetton transfer our wallet refused: a claim is owed again, a return on cancel is held again.',
    ),
    fn(
      'return_jettons',
      '()',
      [
        ['slice', 'to'],
        ['int', 'value'],
      ],
      ['impure', 'inline'],
      [
        {
          kind: 'comment',
          text: 'On cancel: every jetton held goes back to the owner, each transfer carrying `value` nanotons.',
        },
        '(int count, cell entries, cell claims) = jetton_state()',
        'int j = 0',
        {
          kind: 'while',
          cond: 'j < count',
          body: [
            '(slice master, slice wallet, int received, int claimed_all) = jetton_entry(entries, j)',
            iff('wallet_known?(wallet) & (received > claimed_all)', [
              'send_jetton(wallet, value, 1, return_query_base + j, received - claimed_all, to)',
              'entries = entries.udict_set_builder(8, j, pack_jetton(master, wallet, claimed_all, claimed_all))',
            ]),
            'j += 1',
          ],
        },
        'set_jettons(count, entries, claims)',
      ],
    ),
  ];
}

/** In recv_internal: the jetton messages of listed jettons (wallet answers, claims, discovery asked again). */
export const jettonReceiveOps: Stmt[] = [
  iff('op == op::take_wallet_address', ['on_take_wallet(sender, query_id, in_msg_body)', 'return ()']),
  iff('op == op::excesses', ['return ()']),
  iff('op == op::claim_jetton', ['on_claim_jetton(sender, in_msg_body)', 'return ()']),
  iff('op == op::discover', [
    { kind: 'comment', text: 'Anyone may ask the masters again, but pays for it: the estate balance is reserved.' },
    'int pending = pending_wallets()',
    'throw_unless(err::nothing_to_claim, pending > 0)',
    'caller_pays(my_balance - msg_value, msg_value, pending)',
    'discover_wallets()',
    'refund_caller(sender)',
    'return ()',
  ]),
];

/** In cancel: the jettons go back to the owner, and the rent reserve stays for retries. */
export const jettonCancel: Stmt[] = [
  {
    kind: 'comment',
    text: 'The rent reserve stays, so that a jetton return that bounces can be retried with return_jettons.',
  },
  'raw_reserve(reserve(), 2)',
  'return_jettons(sender, jetton_message_value)',
];

/** After a cancel: the owner asks again for the jettons whose return bounced. */
export const returnJettonsOp: Stmt = iff('op == op::return_jettons', [
  {
    kind: 'comment',
    text: 'After a cancel: the owner sends the jettons that came back again, paying with the message value.',
  },
  'require_owner(sender)',
  'throw_unless(err::not_active, ctx_state == state::cancelled)',
  'int pending = pending_returns()',
  'throw_unless(err::nothing_to_claim, pending > 0)',
  'caller_pays(my_balance - msg_value, msg_value, pending)',
  {
    kind: 'comment',
    text: 'Each transfer forwards its part of what the owner attached (a wallet may need more than the default), less the fee margin.',
  },
  'return_jettons(sender, msg_value / pending - jetton_fee_margin)',
  'save_data()',
  'refund_caller(sender)',
  'return ()',
]);

export function addJettonGetters(m: FuncModule): void {
  m.functions.push(
    fn(
      'get_jettons',
      'tuple',
      [],
      ['method_id'],
      [
        'load_data()',
        '(int count, cell entries, _) = jetton_state()',
        'tuple out = empty_tuple()',
        'int j = 0',
        {
          kind: 'while',
          cond: 'j < count',
          body: [
            '(slice master, slice wallet, int received, int claimed) = jetton_entry(entries, j)',
            'out~tpush([master, wallet, received, claimed])',
            'j += 1',
          ],
        },
        'return out',
      ],
      'One [master, our wallet (addr_none until discovered), received, claimed] per jetton.',
    ),
    fn(
      'get_jetton_claimed',
      'int',
      [
        ['int', 'index'],
        ['int', 'j'],
      ],
      ['method_id'],
      ['load_data()', '(_, _, cell claims) = jetton_state()', 'return jetton_claimed(claims, (index << 8) | j)'],
    ),
  );
}

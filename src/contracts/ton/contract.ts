import { emptyModule, printModule, type FuncFunction, type FuncModule, type Stmt } from './func-model.js';
import { GUARDIAN_WAIT_DAYS, MAX_VETOES } from '../guardians.js';
import { templateId, TON_MAX_BENEFICIARIES, type TonShape } from './shape.js';
import { STDLIB, stdlibFor } from './stdlib.js';

/**
 * The TON inheritance contract, built as a FuncModule for one shape.
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

export const OP = {
  deposit: 0x64706f73,
  checkIn: 0x636b696e,
  update: 0x75706474,
  cancel: 0x636e636c,
  withdraw: 0x77647261,
  release: 0x726c7365,
  approve: 0x61707276,
  veto: 0x7665746f,
  claim: 0x636c6169,
  payout: 0x7061796f,
  claimJetton: 0x636c6a74,
  discover: 0x64697363,
  returnJettons: 0x726a6574,
  /** TEP-74 / TEP-89 jetton messages. */
  jettonTransfer: 0x0f8a7ea5,
  transferNotification: 0x7362d09c,
  excesses: 0xd53276db,
  provideWalletAddress: 0x2c76b973,
  takeWalletAddress: 0xd1735400,
} as const;

export const ERR = {
  notOwner: 401,
  notBeneficiary: 402,
  notGuardian: 403,
  notReleased: 410,
  deadlinePassed: 411,
  notActive: 412,
  nothingToClaim: 413,
  badShares: 414,
  notInGrace: 415,
  alreadyVoted: 416,
  insufficientFunds: 417,
  vetoLimit: 418,
  notStarted: 419,
  unknownJetton: 420,
  unknownOp: 0xffff,
} as const;

export const STATE = { active: 0, released: 1, cancelled: 2 } as const;

/** Nanotons sent with each jetton-wallet discovery request and with each jetton returned on cancel. */
export const JETTON_MESSAGE_VALUE = 50_000_000n;
/** Nanotons per jetton message on top of JETTON_MESSAGE_VALUE that a paid discovery or return must attach (forwarding fees). */
export const JETTON_FEE_MARGIN = 20_000_000n;
/** After the release the reserve still covers this long, and it never decays below this much rent. */
export const CLAIM_WINDOW_SECONDS = 365 * 86_400;
/** Query ids of jetton returns on cancel: RETURN_QUERY_BASE + jetton index (claims use index << 8 | jetton, below 2^16). */
export const RETURN_QUERY_BASE = 0x10000;

const hex = (n: number) => `0x${n.toString(16)}`;

function consts(m: FuncModule, shape: TonShape): void {
  for (const [k, v] of Object.entries(OP)) m.consts.push({ name: `op::${snake(k)}`, value: hex(v) });
  for (const [k, v] of Object.entries(ERR)) m.consts.push({ name: `err::${snake(k)}`, value: String(v) });
  for (const [k, v] of Object.entries(STATE)) m.consts.push({ name: `state::${k}`, value: String(v) });
  m.consts.push({ name: 'claim_window', value: String(CLAIM_WINDOW_SECONDS), comment: 'seconds of rent the reserve never decays below' });
  m.consts.push({ name: 'max_beneficiaries', value: String(TON_MAX_BENEFICIARIES) });
  if (shape.guardians) {
    m.consts.push({ name: 'guardian_wait', value: String(GUARDIAN_WAIT_DAYS * 86_400), comment: "seconds of the owner's silence before the guardians' early release takes effect" });
    m.consts.push({ name: 'max_vetoes', value: String(MAX_VETOES), comment: "vetoes that may postpone a release after the owner's last sign of life" });
  }
  if (shape.jettons) {
    m.consts.push({ name: 'jetton_message_value', value: JETTON_MESSAGE_VALUE.toString(), comment: 'nanotons per discovery request / returned jetton' });
    m.consts.push({ name: 'jetton_fee_margin', value: JETTON_FEE_MARGIN.toString(), comment: 'nanotons per message a paid discovery / return attaches for fees' });
    m.consts.push({ name: 'return_query_base', value: hex(RETURN_QUERY_BASE), comment: 'query id of a jetton returned on cancel: base + jetton index' });
  }
  m.consts.push({ name: 'template_id', value: String(templateId(shape.template)), comment: shape.template });
}

function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

const fn = (
  name: string,
  returnType: string,
  params: Array<[string, string]>,
  specifiers: FuncFunction['specifiers'],
  body: Stmt[],
  doc?: string,
): FuncFunction => ({ name, returnType, params: params.map(([type, n]) => ({ type, name: n })), specifiers, body, ...(doc ? { doc } : {}) });

const iff = (cond: string, then: Stmt[], els?: Stmt[]): Stmt => ({ kind: 'if', cond, then, ...(els ? { else: els } : {}) });

function storage(m: FuncModule): void {
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
    fn('load_data', '()', [], ['impure', 'inline'], [
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
    ]),
    fn('save_data', '()', [], ['impure', 'inline'], [
      'set_data(begin_cell().store_slice(ctx_owner).store_uint(ctx_state, 8).store_uint(ctx_last, 64)' +
        '.store_uint(ctx_interval, 32).store_uint(ctx_grace, 32).store_uint(ctx_reserve, 64).store_uint(ctx_rent_rate, 64)' +
        '.store_uint(ctx_rent_step, 64).store_uint(ctx_rent_count, 8).store_coins(ctx_claimed_total)' +
        '.store_uint(ctx_count, 8).store_dict(ctx_benefs).store_dict(ctx_guardians).store_dict(ctx_jettons).end_cell())',
    ]),
  );
}

function timing(m: FuncModule, shape: TonShape): void {
  const byGuardians = shape.guardians ? ' | guardians_released?()' : '';
  if (shape.guardians) {
    m.functions.push(
      fn('guardian_state', '(int, int, int, int, int, int, cell)', [], ['inline'], [
        'slice gs = ctx_guardians.begin_parse()',
        'return (gs~load_uint(8), gs~load_uint(8), gs~load_uint(16), gs~load_uint(16), gs~load_uint(64), gs~load_uint(8), gs~load_dict())',
      ], 'Threshold, count, approval and veto masks, when the early release takes effect (0 none), vetoes used, guardians.'),
      fn('guardians_released?', 'int', [], ['inline'], [
        '(_, _, _, _, int release_at, _, _) = guardian_state()',
        'return (release_at > 0) & (now() >= release_at)',
      ], "The guardians' quorum proposed an early release and the owner stayed silent until it took effect."),
    );
  }
  if (shape.deadMansSwitch) {
    m.functions.push(
      fn('deadline', 'int', [], ['inline'], ['return ctx_last + ctx_interval'], 'Last check-in plus the interval.'),
      fn('release_time', 'int', [], ['inline'], [shape.gracePeriod ? 'return deadline() + ctx_grace' : 'return deadline()']),
      fn('before_deadline?', 'int', [], ['inline'], ['return now() < deadline()']),
      fn(
        'released?',
        'int',
        [],
        ['inline'],
        [`return (ctx_state == state::released) | ((ctx_state == state::active) & (ctx_last > 0) & ((now() >= release_time())${byGuardians}))`],
        'Released by a claim, or because the owner (whose first message started the clock) missed the deadline and any grace period' +
          (shape.guardians ? ", or stayed silent after the guardians' proposal." : '.'),
      ),
    );
  } else {
    m.functions.push(
      fn('before_deadline?', 'int', [], ['inline'], ['return -1'], 'No switch: the owner may act until the estate is released.'),
      fn('released?', 'int', [], ['inline'], [shape.guardians ? 'return (ctx_state == state::released) | ((ctx_state == state::active) & guardians_released?())' : 'return ctx_state == state::released'],
        shape.guardians ? "No switch: released by the owner, or by the guardians after the owner's silence." : 'No switch: released only by the owner.'),
    );
  }
}

function helpers(m: FuncModule, shape: TonShape): void {
  m.functions.push(
    fn('send_value', '()', [['slice', 'to'], ['int', 'amount'], ['int', 'mode'], ['cell', 'body']], ['impure', 'inline'], [
      'send_raw_message(begin_cell().store_uint(0x18, 6).store_slice(to).store_coins(amount)' +
        '.store_uint(1, 1 + 4 + 4 + 64 + 32 + 1 + 1).store_ref(body).end_cell(), mode)',
    ]),
    fn('reserve', 'int', [], ['inline'], [
      { kind: 'comment', text: 'The rent since the last check-in was taken from the balance: the reserve paid it, not the estate.' },
      'int left = ctx_reserve - muldiv(ctx_rent_rate, now() - ctx_last, 65536)',
      'return max(left, muldiv(ctx_rent_rate, claim_window, 65536))',
    ], 'Nanotons held back for storage rent now: the reserve less the rent since the last check-in, never below a claim window of rent.'),
    fn('available', 'int', [['int', 'balance']], ['inline'], [
      'int a = balance - reserve()',
      iff('a < 0', ['a = 0']),
      'return a',
    ], 'What the contract holds for the estate: its balance less the storage reserve.'),
    fn('entitlement', 'int', [['int', 'available'], ['int', 'share'], ['int', 'claimed']], ['inline'], [
      { kind: 'comment', text: 'Share of everything received so far (claims paid plus what is held), less what was paid.' },
      'int amount = muldiv(available + ctx_claimed_total, share, 10000) - claimed',
      'return min(max(amount, 0), available)',
    ]),
    fn('require_owner', '()', [['slice', 'sender']], ['impure', 'inline'], [
      'throw_unless(err::not_owner, equal_slices(sender, ctx_owner))',
    ]),
  );
  if (shape.guardians) {
    m.functions.push(
      fn('set_guardians', '()', [['int', 'approvals'], ['int', 'vetoes'], ['int', 'release_at'], ['int', 'postponed']], ['impure', 'inline'], [
        '(int threshold, int count, _, _, _, _, cell gdict) = guardian_state()',
        'ctx_guardians = begin_cell().store_uint(threshold, 8).store_uint(count, 8).store_uint(approvals, 16)' +
          '.store_uint(vetoes, 16).store_uint(release_at, 64).store_uint(postponed, 8).store_dict(gdict).end_cell()',
      ]),
    );
  }
  m.functions.push(
    fn('prove_life', '()', [], ['impure', 'inline'], [
      'ctx_last = now()',
      ...(shape.guardians ? [{ kind: 'comment', text: "The owner is alive: pending votes, the guardians' early release and used vetoes are cleared." } as Stmt, 'set_guardians(0, 0, 0, 0)'] : []),
    ], 'Any owner action is proof of life: the deadline becomes now plus the interval.'),
    fn('require_owner_window', '()', [['slice', 'sender']], ['impure', 'inline'], [
      'require_owner(sender)',
      'throw_unless(err::not_active, ctx_state == state::active)',
      'throw_if(err::deadline_passed, released?())',
      'throw_unless(err::deadline_passed, before_deadline?())',
      'prove_life()',
    ], 'Owner operations are allowed while active and before the deadline; each is proof of life.'),
  );
  if (shape.guardians) {
    m.functions.push(
      fn('popcount', 'int', [['int', 'x']], ['inline'], [
        'int n = 0',
        { kind: 'while', cond: 'x', body: ['n += x & 1', 'x >>= 1'] },
        'return n',
      ]),
      fn('guardian_bit', 'int', [['slice', 'sender'], ['int', 'index']], ['inline'], [
        'slice gs = ctx_guardians.begin_parse()',
        'gs~skip_bits(8 + 8 + 16 + 16 + 64 + 8)',
        'cell gdict = gs~load_dict()',
        '(slice entry, int found) = gdict.udict_get?(8, index)',
        'throw_unless(err::not_guardian, found)',
        'throw_unless(err::not_guardian, equal_slices(entry~load_msg_addr(), sender))',
        'return 1 << index',
      ], 'The vote bit of guardian `index`, after checking that the sender is that guardian.'),
    );
  }
}

function jettonHelpers(m: FuncModule): void {
  m.functions.push(
    fn('jetton_state', '(int, cell, cell)', [], ['inline'], [
      'slice js = ctx_jettons.begin_parse()',
      'return (js~load_uint(8), js~load_dict(), js~load_dict())',
    ]),
    fn('set_jettons', '()', [['int', 'count'], ['cell', 'entries'], ['cell', 'claims']], ['impure', 'inline'], [
      'ctx_jettons = begin_cell().store_uint(count, 8).store_dict(entries).store_dict(claims).end_cell()',
    ]),
    fn('jetton_entry', '(slice, slice, int, int)', [['cell', 'entries'], ['int', 'j']], ['inline'], [
      '(slice e, int found) = entries.udict_get?(8, j)',
      'throw_unless(err::unknown_jetton, found)',
      'return (e~load_msg_addr(), e~load_msg_addr(), e~load_coins(), e~load_coins())',
    ]),
    fn('pack_jetton', 'builder', [['slice', 'master'], ['slice', 'wallet'], ['int', 'received'], ['int', 'claimed']], ['inline'], [
      'return begin_cell().store_slice(master).store_slice(wallet).store_coins(received).store_coins(claimed)',
    ]),
    fn('wallet_known?', 'int', [['slice', 'wallet']], ['inline'], ['return wallet.slice_bits() > 2'], 'addr_none (2 bits) until the master has told us our wallet.'),
    fn('jetton_claimed', 'int', [['cell', 'claims'], ['int', 'key']], ['inline'], [
      '(slice c, int found) = claims.udict_get?(16, key)',
      iff('found', ['return c~load_coins()']),
      'return 0',
    ]),
    fn('send_jetton', '()', [['slice', 'wallet'], ['int', 'value'], ['int', 'mode'], ['int', 'query_id'], ['int', 'amount'], ['slice', 'to']], ['impure', 'inline'], [
      { kind: 'comment', text: 'TEP-74 transfer: amount, destination, response destination, no custom payload, no forward TON, empty forward payload.' },
      'send_value(wallet, value, mode, begin_cell().store_uint(op::jetton_transfer, 32).store_uint(query_id, 64).store_coins(amount)' +
        '.store_slice(to).store_slice(to).store_uint(0, 1).store_coins(0).store_uint(0, 1).end_cell())',
    ]),
    fn('pending_wallets', 'int', [], ['inline'], [
      '(int count, cell entries, _) = jetton_state()',
      'int n = 0',
      'int j = 0',
      {
        kind: 'while',
        cond: 'j < count',
        body: ['(_, slice wallet, _, _) = jetton_entry(entries, j)', iff('~ wallet_known?(wallet)', ['n += 1']), 'j += 1'],
      },
      'return n',
    ], 'Jettons whose wallet is still unknown.'),
    fn('pending_returns', 'int', [], ['inline'], [
      '(int count, cell entries, _) = jetton_state()',
      'int n = 0',
      'int j = 0',
      {
        kind: 'while',
        cond: 'j < count',
        body: ['(_, slice wallet, int received, int claimed_all) = jetton_entry(entries, j)', iff('wallet_known?(wallet) & (received > claimed_all)', ['n += 1']), 'j += 1'],
      },
      'return n',
    ], 'Jettons still held (to return on cancel).'),
    fn('caller_pays', '()', [['int', 'balance_before'], ['int', 'msg_value'], ['int', 'messages']], ['impure', 'inline'], [
      { kind: 'comment', text: 'The estate keeps its balance: the messages that follow can only spend what the caller attached.' },
      'throw_unless(err::insufficient_funds, msg_value >= messages * (jetton_message_value + jetton_fee_margin))',
      'raw_reserve(balance_before, 0)',
    ]),
    fn('refund_caller', '()', [['slice', 'to']], ['impure', 'inline'], [
      { kind: 'comment', text: 'What is left of the caller\'s value (above the reserved balance) goes back to the caller.' },
      'send_raw_message(begin_cell().store_uint(0x10, 6).store_slice(to).store_coins(0).store_uint(0, 1 + 4 + 4 + 64 + 32 + 1 + 1).end_cell(), 128 + 2)',
    ]),
    fn('discover_wallets', '()', [], ['impure', 'inline'], [
      { kind: 'comment', text: 'TEP-89: ask each jetton master for this contract\'s wallet address; query_id carries the jetton index.' },
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
    ]),
    fn('on_take_wallet', '()', [['slice', 'sender'], ['int', 'j'], ['slice', 'body']], ['impure', 'inline'], [
      '(int count, cell entries, cell claims) = jetton_state()',
      '(slice master, slice wallet, int received, int claimed) = jetton_entry(entries, j)',
      'throw_unless(err::unknown_jetton, equal_slices(master, sender))',
      iff('~ wallet_known?(wallet)', [
        'entries = entries.udict_set_builder(8, j, pack_jetton(master, body~load_msg_addr(), received, claimed))',
        'set_jettons(count, entries, claims)',
        'save_data()',
      ]),
    ], 'The master answers with our wallet: only the master of jetton j may set it, once.'),
    fn('on_jetton_notification', '()', [['slice', 'sender'], ['slice', 'body']], ['impure', 'inline'], [
      { kind: 'comment', text: 'Credited only when it comes from one of our own jetton wallets.' },
      'int amount = body~load_coins()',
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
            'return ()',
          ]),
          'j += 1',
        ],
      },
    ]),
    fn('on_claim_jetton', '()', [['slice', 'sender'], ['slice', 'body']], ['impure', 'inline'], [
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
      { kind: 'comment', text: 'Mode 64: the TON the claimant attached pays the jetton transfer; the query id names the claim for a bounce.' },
      'send_jetton(wallet, 0, 64, key, amount, sender)',
      'save_data()',
    ], 'A beneficiary claims its share of jetton j (everything received so far, late transfers included).'),
    fn('on_jetton_bounce', '()', [['slice', 'sender'], ['int', 'key'], ['int', 'amount']], ['impure', 'inline'], [
      '(int count, cell entries, cell claims) = jetton_state()',
      'int j = key & 255',
      iff('j >= count', ['return ()']),
      '(slice master, slice wallet, int received, int claimed_all) = jetton_entry(entries, j)',
      { kind: 'comment', text: 'Only our own wallet of that jetton can bounce its transfer back.' },
      iff('~ equal_slices(wallet, sender)', ['return ()']),
      iff('key >= return_query_base', [
        { kind: 'comment', text: 'A return to the owner on cancel was refused: the jettons are held again, and `return_jettons` retries.' },
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
    ], 'A jetton transfer our wallet refused: a claim is owed again, a return on cancel is held again.'),
    fn('return_jettons', '()', [['slice', 'to'], ['int', 'value']], ['impure', 'inline'], [
      { kind: 'comment', text: 'On cancel: every jetton held goes back to the owner, each transfer carrying `value` nanotons.' },
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
    ]),
  );
}

function handlers(m: FuncModule, shape: TonShape): void {
  if (shape.jettons) jettonHelpers(m);
  m.functions.push(
    fn('on_bounce', '()', [['slice', 'sender'], ['slice', 'body']], ['impure', 'inline'], [
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
      ...(shape.jettons
        ? [iff('op == op::jetton_transfer', ['int key = body~load_uint(64)', 'on_jetton_bounce(sender, key, body~load_coins())'])]
        : []),
    ]),
    fn('on_claim', '()', [['slice', 'sender'], ['int', 'balance_before'], ['int', 'query_id'], ['slice', 'body']], ['impure', 'inline'], [
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
    ]),
    fn('on_update', '()', [['slice', 'body'], ['int', 'msg_value']], ['impure', 'inline'], [
      { kind: 'comment', text: 'New beneficiaries: ^[count:uint8 (HashmapE 8 (address share_bps))], shares summing to 10000.' },
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
        { kind: 'comment', text: 'More beneficiaries than the reserve was reckoned for: the rent rate rises by rent_step per beneficiary added,' },
        { kind: 'comment', text: 'the reserve in proportion, and the owner attaches the difference (so the estate does not pay for it).' },
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
    ]),
  );
  if (shape.guardians) {
    const vote: Stmt[] = [
      'int bit = guardian_bit(sender, body~load_uint(8))',
      '(int threshold, _, int approvals, int vetoes, int release_at, int postponed, _) = guardian_state()',
      'throw_unless(err::not_active, ctx_state == state::active)',
      { kind: 'comment', text: "Until the owner's first message nothing runs: guardians cannot act on a clock the owner did not start." },
      'throw_unless(err::not_started, ctx_last > 0)',
      'throw_if(err::not_active, released?())',
    ];
    m.functions.push(
      fn('on_approve', '()', [['slice', 'sender'], ['slice', 'body']], ['impure', 'inline'], [
        ...vote,
        'throw_if(err::already_voted, approvals & bit)',
        'approvals |= bit',
        iff('(popcount(approvals) >= threshold) & (release_at == 0)', [
          { kind: 'comment', text: "The quorum proposes; the release waits for the owner's silence, and any owner action cancels it." },
          'release_at = now() + guardian_wait',
        ]),
        'set_guardians(approvals, vetoes, release_at, postponed)',
        'save_data()',
      ], "Guardian confirmation of the owner's absence; m of n propose an early release that takes effect guardian_wait later unless the owner acts."),
    );
    if (shape.gracePeriod) {
      m.functions.push(
        fn('on_veto', '()', [['slice', 'sender'], ['slice', 'body']], ['impure', 'inline'], [
          ...vote,
          'throw_unless(err::not_in_grace, (now() >= deadline()) & (now() < release_time()))',
          'throw_unless(err::veto_limit, postponed < max_vetoes)',
          'throw_if(err::already_voted, vetoes & bit)',
          'vetoes |= bit',
          iff('popcount(vetoes) >= threshold', [
            { kind: 'comment', text: "A wrong trigger: the guardians restart the clock, at most max_vetoes times after the owner's last sign of life." },
            'ctx_last = now()',
            'vetoes = 0',
            'postponed += 1',
          ]),
          'set_guardians(approvals, vetoes, release_at, postponed)',
          'save_data()',
        ], 'Guardian veto during the grace period; m of n restart the clock, a bounded number of times.'),
      );
    }
  }

  const ownerOps: Stmt[] = [
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
      ...(shape.jettons
        ? [
            { kind: 'comment', text: 'The rent reserve stays, so that a jetton return that bounces can be retried with return_jettons.' } as Stmt,
            'raw_reserve(reserve(), 2)',
            'return_jettons(sender, jetton_message_value)',
          ]
        : []),
      'save_data()',
      'send_value(sender, 0, 128, begin_cell().store_uint(op::cancel, 32).store_uint(query_id, 64).end_cell())',
      'return ()',
    ]),
    ...(shape.jettons
      ? [
          iff('op == op::return_jettons', [
            { kind: 'comment', text: 'After a cancel: the owner sends the jettons that came back again, paying with the message value.' },
            'require_owner(sender)',
            'throw_unless(err::not_active, ctx_state == state::cancelled)',
            'int pending = pending_returns()',
            'throw_unless(err::nothing_to_claim, pending > 0)',
            'caller_pays(my_balance - msg_value, msg_value, pending)',
            { kind: 'comment', text: 'Each transfer forwards its part of what the owner attached (a wallet may need more than the default), less the fee margin.' },
            'return_jettons(sender, msg_value / pending - jetton_fee_margin)',
            'save_data()',
            'refund_caller(sender)',
            'return ()',
          ]),
        ]
      : []),
    iff('op == op::release', [
      'require_owner(sender)',
      'throw_unless(err::not_active, ctx_state == state::active)',
      'ctx_state = state::released',
      'save_data()',
      'return ()',
    ]),
  ];
  const guardianOps: Stmt[] = shape.guardians
    ? [
        iff('op == op::approve', ['on_approve(sender, in_msg_body)', 'return ()']),
        ...(shape.gracePeriod ? [iff('op == op::veto', ['on_veto(sender, in_msg_body)', 'return ()'])] : []),
      ]
    : [];

  m.functions.push(
    fn('recv_internal', '()', [['int', 'my_balance'], ['int', 'msg_value'], ['cell', 'in_msg_full'], ['slice', 'in_msg_body']], ['impure'], [
      'slice cs = in_msg_full.begin_parse()',
      'int flags = cs~load_uint(4)',
      'load_data()',
      'slice sender = cs~load_msg_addr()',
      iff('flags & 1', ['on_bounce(sender, in_msg_body)', 'return ()']),
      iff('(ctx_last == 0) & equal_slices(sender, ctx_owner)', [
        { kind: 'comment', text: "The owner's first message starts the clock; a deployment by anyone else starts nothing." },
        'ctx_last = now()',
        'save_data()',
        ...(shape.jettons ? ['discover_wallets()'] : []),
      ]),
      'int op = 0',
      iff('in_msg_body.slice_bits() >= 32', ['op = in_msg_body~load_uint(32)']),
      iff('(op == 0) | (op == op::deposit)', [
        { kind: 'comment', text: 'Plain transfers, comments and deposits add to the estate while it is not cancelled.' },
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
      ...(shape.jettons
        ? [
            iff('op == op::transfer_notification', ['on_jetton_notification(sender, in_msg_body)', 'return ()']),
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
          ]
        : []),
      ...ownerOps,
      ...guardianOps,
      'throw(err::unknown_op)',
    ]),
  );
}

function getters(m: FuncModule, shape: TonShape): void {
  m.functions.push(
    fn('get_owner', 'slice', [], ['method_id'], ['load_data()', 'return ctx_owner']),
    fn('get_state', 'int', [], ['method_id'], [
      'load_data()',
      iff('released?()', ['return state::released']),
      'return ctx_state',
    ], '0 active, 1 released (also once the deadline and grace period have passed), 2 cancelled.'),
    fn('get_deadline', 'int', [], ['method_id'], ['load_data()', shape.deadMansSwitch ? 'return deadline()' : 'return 0'], 'Unix time of the deadline; 0 without a switch.'),
    fn('get_release_time', 'int', [], ['method_id'], ['load_data()', shape.deadMansSwitch ? 'return release_time()' : 'return 0'], 'Deadline plus grace period; 0 without a switch.'),
    fn('get_last_check_in', 'int', [], ['method_id'], ['load_data()', 'return ctx_last']),
    fn('get_interval', '(int, int)', [], ['method_id'], ['load_data()', 'return (ctx_interval, ctx_grace)'], 'Interval and grace period in seconds.'),
    fn('get_shares', 'tuple', [], ['method_id'], [
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
    ], 'One [address, share_bps, claimed] triple per beneficiary, by index.'),
    fn('get_beneficiary', '(slice, int, int)', [['int', 'index']], ['method_id'], [
      'load_data()',
      '(slice entry, int found) = ctx_benefs.udict_get?(8, index)',
      'throw_unless(err::not_beneficiary, found)',
      'return (entry~load_msg_addr(), entry~load_uint(16), entry~load_coins())',
    ], 'Address, share in basis points and amount claimed of beneficiary `index`.'),
    fn('get_claimable', 'int', [['int', 'index']], ['method_id'], [
      'load_data()',
      '(slice entry, int found) = ctx_benefs.udict_get?(8, index)',
      iff('~ found', ['return 0']),
      'entry~load_msg_addr()',
      'int share = entry~load_uint(16)',
      'return entitlement(available(my_balance()), share, entry~load_coins())',
    ], 'What beneficiary `index` could claim now, if the estate were released.'),
    fn('get_totals', '(int, int)', [], ['method_id'], ['load_data()', 'return (ctx_claimed_total, available(my_balance()))'], 'Paid out so far, and held for the estate.'),
    fn('get_reserve', '(int, int, int, int, int)', [], ['method_id'], ['load_data()', 'return (reserve(), ctx_reserve, ctx_rent_rate, ctx_rent_step, ctx_rent_count)'],
      'Rent reserve held back now, the reserve set at each check-in, the rent rate (nanotons per 65536 s), its rise per beneficiary added, and the beneficiaries it is reckoned for.'),
    fn('get_template', 'int', [], ['method_id'], ['return template_id']),
  );
  if (shape.jettons) {
    m.functions.push(
      fn('get_jettons', 'tuple', [], ['method_id'], [
        'load_data()',
        '(int count, cell entries, _) = jetton_state()',
        'tuple out = empty_tuple()',
        'int j = 0',
        {
          kind: 'while',
          cond: 'j < count',
          body: ['(slice master, slice wallet, int received, int claimed) = jetton_entry(entries, j)', 'out~tpush([master, wallet, received, claimed])', 'j += 1'],
        },
        'return out',
      ], 'One [master, our wallet (addr_none until discovered), received, claimed] per jetton.'),
      fn('get_jetton_claimed', 'int', [['int', 'index'], ['int', 'j']], ['method_id'], [
        'load_data()',
        '(_, _, cell claims) = jetton_state()',
        'return jetton_claimed(claims, (index << 8) | j)',
      ]),
    );
  }
  if (shape.guardians) {
    m.functions.push(
      fn('get_guardians', '(int, int, int, int, int, int)', [], ['method_id'], [
        'load_data()',
        '(int threshold, int count, int approvals, int vetoes, int release_at, int postponed, _) = guardian_state()',
        'return (threshold, count, approvals, vetoes, release_at, max_vetoes - postponed)',
      ], "Threshold, number of guardians, approval and veto vote masks, when the guardians' early release takes effect (0 none), vetoes left."),
    );
  }
}

/** The standard-library declarations the module's code refers to, and no others. */
function usedPrimitives(m: FuncModule): FuncModule['asm'] {
  const body = printModule({ ...m, asm: [] });
  const used = Object.entries(STDLIB)
    .filter(([, decl]) => new RegExp(`(^|[^\\w?])${decl.name.replace(/^~/, '').replace(/[?]/g, '\\?')}\\(`, 'm').test(body))
    .map(([k]) => k);
  return stdlibFor(used);
}

/** The contract model for one shape. */
export function buildTonContract(shape: TonShape): FuncModule {
  const m = emptyModule([
    'svc inheritance contract for TON (FunC 0.4.6), generated from a model; do not edit by hand.',
    `Shape: template=${shape.template}, deadMansSwitch=${shape.deadMansSwitch}, gracePeriod=${shape.gracePeriod}, guardians=${shape.guardians}, jettons=${shape.jettons}.`,
    'Per-plan values (owner, beneficiaries and shares, interval, grace, guardians) live in the initial data cell.',
    '',
    "Owner: check_in (resets the deadline), update beneficiaries, withdraw, cancel (before the deadline), release; the owner's first message starts the clock and every owner action moves it.",
    'Beneficiaries: claim their share of everything received (late deposits are shared too) once released.',
    'Payouts are bounceable; a bounced payout is credited back to the beneficiary.',
    'Storage rent: a reserve set per plan (data) is kept out of the estate; rent after the last check-in is paid from it.',
    ...(shape.jettons
      ? [
          'Jettons: wallets found through the masters (TEP-89); transfers credited from our wallets\' notifications; claimed per jetton.',
          'A jetton claim or return that bounces is restored; discover and return_jettons are paid by the caller\'s message value.',
        ]
      : []),
  ]);
  m.pragmas.push('version >=0.4.4');
  consts(m, shape);
  storage(m);
  timing(m, shape);
  helpers(m, shape);
  handlers(m, shape);
  getters(m, shape);
  m.asm = usedPrimitives(m);
  return m;
}

export function tonContractSource(shape: TonShape): string {
  return printModule(buildTonContract(shape));
}

import type { FuncModule, Stmt } from '../func-model.js';
import { fn, iff } from '../func-helpers.js';
import type { TonShape } from '../shape.js';

/*
 * Guardians (m of n, votes as bit masks): their quorum proposes an early
 * release that takes effect `wait` seconds later unless the owner acts; with a
 * grace period they may veto a wrong trigger, at most `max_vetoes` times after
 * the owner's last sign of life. Both are the plan's, fixed in the data at
 * deployment. Their state lives in the Guardians cell (see the storage layout
 * in core.ts).
 */

/** Reading the Guardians cell, and whether their early release took effect. */
export function addGuardianState(m: FuncModule): void {
  m.functions.push(
    fn(
      'guardian_state',
      '(int, int, int, int, int, int, cell)',
      [],
      ['inline'],
      [
        'slice gs = ctx_guardians.begin_parse()',
        'var (threshold, count, approvals, vetoes, release_at, postponed) = (gs~load_uint(8), gs~load_uint(8), gs~load_uint(16), gs~load_uint(16), gs~load_uint(64), gs~load_uint(8))',
        'gs~skip_bits(32 + 8)',
        'return (threshold, count, approvals, vetoes, release_at, postponed, gs~load_dict())',
      ],
      'Threshold, count, approval and veto masks, when the early release takes effect (0 none), vetoes used, guardians.',
    ),
    fn(
      'guardian_rules',
      '(int, int)',
      [],
      ['inline'],
      [
        'slice gs = ctx_guardians.begin_parse()',
        'gs~skip_bits(8 + 8 + 16 + 16 + 64 + 8)',
        'return (gs~load_uint(32), gs~load_uint(8))',
      ],
      "The plan's wait (seconds of the owner's silence before the guardians' early release takes effect) and veto bound.",
    ),
    fn(
      'guardians_released?',
      'int',
      [],
      ['inline'],
      ['(_, _, _, _, int release_at, _, _) = guardian_state()', 'return (release_at > 0) & (now() >= release_at)'],
      "The guardians' quorum proposed an early release and the owner stayed silent until it took effect.",
    ),
  );
}

/** Writing the Guardians cell. */
export function addGuardianStore(m: FuncModule): void {
  m.functions.push(
    fn(
      'set_guardians',
      '()',
      [
        ['int', 'approvals'],
        ['int', 'vetoes'],
        ['int', 'release_at'],
        ['int', 'postponed'],
      ],
      ['impure', 'inline'],
      [
        '(int threshold, int count, _, _, _, _, cell gdict) = guardian_state()',
        '(int wait, int max_vetoes) = guardian_rules()',
        'ctx_guardians = begin_cell().store_uint(threshold, 8).store_uint(count, 8).store_uint(approvals, 16)' +
          '.store_uint(vetoes, 16).store_uint(release_at, 64).store_uint(postponed, 8)' +
          '.store_uint(wait, 32).store_uint(max_vetoes, 8).store_dict(gdict).end_cell()',
      ],
    ),
  );
}

/** In prove_life: the owner is alive, so votes, a pending early release and used vetoes are cleared. */
export const guardianProofOfLife: Stmt[] = [
  {
    kind: 'comment',
    text: "The owner is alive: pending votes, the guardians' early release and used vetoes are cleared.",
  },
  'set_guardians(0, 0, 0, 0)',
];

/** Counting votes, and the vote bit of the guardian sending. */
export function addGuardianVotes(m: FuncModule): void {
  m.functions.push(
    fn(
      'popcount',
      'int',
      [['int', 'x']],
      ['inline'],
      ['int n = 0', { kind: 'while', cond: 'x', body: ['n += x & 1', 'x >>= 1'] }, 'return n'],
    ),
    fn(
      'guardian_bit',
      'int',
      [
        ['slice', 'sender'],
        ['int', 'index'],
      ],
      ['inline'],
      [
        'slice gs = ctx_guardians.begin_parse()',
        'gs~skip_bits(8 + 8 + 16 + 16 + 64 + 8 + 32 + 8)',
        'cell gdict = gs~load_dict()',
        '(slice entry, int found) = gdict.udict_get?(8, index)',
        'throw_unless(err::not_guardian, found)',
        'throw_unless(err::not_guardian, equal_slices(entry~load_msg_addr(), sender))',
        'return 1 << index',
      ],
      'The vote bit of guardian `index`, after checking that the sender is that guardian.',
    ),
  );
}

/** The approve and (with a grace period) veto messages. */
export function addGuardianHandlers(m: FuncModule, shape: TonShape): void {
  const vote: Stmt[] = [
    'int bit = guardian_bit(sender, body~load_uint(8))',
    '(int threshold, _, int approvals, int vetoes, int release_at, int postponed, _) = guardian_state()',
    'throw_unless(err::not_active, ctx_state == state::active)',
    {
      kind: 'comment',
      text: "Until the owner's first message nothing runs: guardians cannot act on a clock the owner did not start.",
    },
    'throw_unless(err::not_started, ctx_last > 0)',
    'throw_if(err::not_active, released?())',
  ];
  m.functions.push(
    fn(
      'on_approve',
      '()',
      [
        ['slice', 'sender'],
        ['slice', 'body'],
      ],
      ['impure', 'inline'],
      [
        ...vote,
        'throw_if(err::already_voted, approvals & bit)',
        'approvals |= bit',
        iff('(popcount(approvals) >= threshold) & (release_at == 0)', [
          {
            kind: 'comment',
            text: "The quorum proposes; the release waits for the owner's silence, and any owner action cancels it.",
          },
          '(int wait, _) = guardian_rules()',
          'release_at = now() + wait',
        ]),
        'set_guardians(approvals, vetoes, release_at, postponed)',
        'save_data()',
      ],
      "Guardian confirmation of the owner's absence; m of n propose an early release that takes effect the plan's wait later unless the owner acts.",
    ),
  );
  if (shape.gracePeriod) {
    m.functions.push(
      fn(
        'on_veto',
        '()',
        [
          ['slice', 'sender'],
          ['slice', 'body'],
        ],
        ['impure', 'inline'],
        [
          ...vote,
          'throw_unless(err::not_in_grace, (now() >= deadline()) & (now() < release_time()))',
          '(_, int max_vetoes) = guardian_rules()',
          'throw_unless(err::veto_limit, postponed < max_vetoes)',
          'throw_if(err::already_voted, vetoes & bit)',
          'vetoes |= bit',
          iff('popcount(vetoes) >= threshold', [
            {
              kind: 'comment',
              text: "A wrong trigger: the guardians restart the clock, at most max_vetoes times after the owner's last sign of life.",
            },
            'ctx_last = now()',
            'vetoes = 0',
            'postponed += 1',
          ]),
          'set_guardians(approvals, vetoes, release_at, postponed)',
          'save_data()',
        ],
        'Guardian veto during the grace period; m of n restart the clock, a bounded number of times.',
      ),
    );
  }
}

/** In recv_internal: the guardians' messages. */
export function guardianReceiveOps(shape: TonShape): Stmt[] {
  return [
    iff('op == op::approve', ['on_approve(sender, in_msg_body)', 'return ()']),
    ...(shape.gracePeriod ? [iff('op == op::veto', ['on_veto(sender, in_msg_body)', 'return ()'])] : []),
  ];
}

export function addGuardianGetters(m: FuncModule): void {
  m.functions.push(
    fn(
      'get_guardians',
      '(int, int, int, int, int, int)',
      [],
      ['method_id'],
      [
        'load_data()',
        '(int threshold, int count, int approvals, int vetoes, int release_at, int postponed, _) = guardian_state()',
        '(_, int max_vetoes) = guardian_rules()',
        'return (threshold, count, approvals, vetoes, release_at, max_vetoes - postponed)',
      ],
      "Threshold, number of guardians, approval and veto vote masks, when the guardians' early release takes effect (0 none), vetoes left.",
    ),
    fn(
      'get_guardian_rules',
      '(int, int)',
      [],
      ['method_id'],
      ['load_data()', 'return guardian_rules()'],
      "The plan's guardian wait in seconds and its veto bound.",
    ),
  );
}

/**
 * Builds the model of the Anchor inheritance program for one shape
 * (template + features). Per-plan values (beneficiaries, shares, interval,
 * grace period, guardians) are arguments of `initialize`, so two plans with
 * the same shape get byte-identical programs.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { GUARDIAN_WAIT_DAYS, MAX_VETOES } from '../guardians.js';
import type { TemplateType } from '../../law/templates.js';
import {
  T,
  borshSize,
  type AccountField,
  type AccountsStruct,
  type Block,
  type ConstItem,
  type EnumItem,
  type FnItem,
  type ImplItem,
  type Instruction,
  type ProgramModel,
  type StructItem,
} from './model.js';

export const CRATE_NAME = 'svc_inheritance';
export const ERR = 'InheritanceError';

/** Program features that change the program's shape. */
export const SOLANA_FEATURES = ['deadMansSwitch', 'multiSig', 'splTokens'] as const;
export type SolanaFeature = (typeof SOLANA_FEATURES)[number];

export interface SolanaShape {
  template: TemplateType;
  deadMansSwitch: boolean;
  multiSig: boolean;
  splTokens: boolean;
}

export function shapeFeatures(s: SolanaShape): SolanaFeature[] {
  return SOLANA_FEATURES.filter((f) => s[f]);
}

/**
 * A placeholder program id, derived from the shape so it is stable: a valid
 * 32-byte base58 key with no known private key. `anchor keys sync` replaces it
 * with the id of the keypair `anchor build` creates.
 */
export function placeholderProgramId(s: SolanaShape): string {
  const digest = createHash('sha256').update(`svc-inheritance/${s.template}/${shapeFeatures(s).join('+')}`).digest();
  return bs58.encode(digest);
}

const E = (name: string): string => `${ERR}::${name}`;

const TEMPLATE_NOTES: Record<TemplateType, string> = {
  'common-law': 'Common law: the owner chose beneficiaries and shares freely (check elective-share rules off-chain).',
  'civil-law': 'Civil law: shares were checked off-chain against the reserved portions of forced heirship.',
  'islamic-mirth': "Islamic mirath: shares were computed off-chain by the fara'id rules; update them only with a recomputation.",
  'islamic-wasiyyah': "Islamic wasiyyah: bequests to non-heirs were checked off-chain against the one-third limit.",
  custom: 'Custom distribution: shares as chosen by the owner, no legal system applied.',
};

// --------------------------------------------------------------- accounts

const ownerSigner = (doc = 'The vault owner; must sign.'): AccountField => ({
  name: 'owner',
  doc: [doc],
  type: { kind: 'signer' },
  constraints: [{ k: 'mut' }],
});

const systemProgram: AccountField = { name: 'system_program', doc: [], type: { kind: 'program', of: 'System' }, constraints: [] };
const tokenProgram: AccountField = { name: 'token_program', doc: [], type: { kind: 'program', of: 'Token' }, constraints: [] };
const ataProgram: AccountField = {
  name: 'associated_token_program',
  doc: [],
  type: { kind: 'program', of: 'AssociatedToken' },
  constraints: [],
};

/** The vault seen by its owner: PDA of the owner's key, bound to the signer by has_one. */
function ownerVault(mut: boolean, extra: AccountField['constraints'] = []): AccountField {
  return {
    name: 'vault',
    doc: ['The inheritance vault (PDA of the owner).'],
    type: { kind: 'account', of: 'Vault' },
    constraints: [
      ...(mut ? [{ k: 'mut' } as const] : []),
      { k: 'seeds', seeds: [{ kind: 'const', value: 'vault' }, { kind: 'key', account: 'owner' }], bump: 'vault.bump' },
      { k: 'has_one', target: 'owner', error: E('NotOwner') },
      ...extra,
    ],
  };
}

/** The vault seen by anyone else: PDA re-derived from the owner stored in it. */
function publicVault(mut: boolean, extra: AccountField['constraints'] = []): AccountField {
  return {
    name: 'vault',
    doc: ['The inheritance vault (PDA of its owner).'],
    type: { kind: 'account', of: 'Vault' },
    constraints: [
      ...(mut ? [{ k: 'mut' } as const] : []),
      {
        k: 'seeds',
        seeds: [{ kind: 'const', value: 'vault' }, { kind: 'field', account: 'vault', field: 'owner', accountType: 'Vault' }],
        bump: 'vault.bump',
      },
      ...extra,
    ],
  };
}

const beneficiaryBound = { k: 'constraint', expr: 'vault.beneficiary_index(&beneficiary.key()).is_some()', error: E('NotBeneficiary') } as const;
const guardianBound = { k: 'constraint', expr: 'vault.guardian_index(&guardian.key()).is_some()', error: E('NotGuardian') } as const;

const mintAccount: AccountField = { name: 'mint', doc: ['The SPL token mint.'], type: { kind: 'account', of: 'Mint', boxed: true }, constraints: [] };

function vaultTokenAccount(init: { payer: string } | null): AccountField {
  return {
    name: 'vault_token_account',
    doc: ["The vault's associated token account for this mint."],
    type: { kind: 'account', of: 'TokenAccount', boxed: true },
    constraints: [
      init ? { k: 'init', ifNeeded: true, payer: init.payer } : { k: 'mut' },
      { k: 'associated_token', mint: 'mint', authority: 'vault' },
    ],
  };
}

// ------------------------------------------------------------------ build

export function buildProgramModel(s: SolanaShape): ProgramModel {
  const sw = s.deadMansSwitch;
  const ms = s.multiSig;
  const spl = s.splTokens;
  /** When the owner may still change the plan. */
  const ownerWindow = sw ? 'before the deadline' : 'while the vault is active';

  // ---- types
  const beneficiaryShare: StructItem = {
    name: 'BeneficiaryShare',
    doc: ['A beneficiary as given to `initialize` and `update_beneficiaries`.'],
    attrs: ['#[derive(AnchorSerialize, AnchorDeserialize, Clone, PartialEq, Eq)]'],
    fields: [
      { name: 'wallet', type: T.pubkey, doc: ['Wallet that may claim.'] },
      { name: 'share_bps', type: T.u16, doc: ['Share in basis points; all shares sum to 10,000.'] },
    ],
  };
  const beneficiaryState: StructItem = {
    name: 'BeneficiaryState',
    doc: ['A beneficiary as stored in the vault, with the lamports already claimed.'],
    attrs: ['#[derive(AnchorSerialize, AnchorDeserialize, Clone, PartialEq, Eq)]'],
    fields: [
      { name: 'wallet', type: T.pubkey },
      { name: 'share_bps', type: T.u16 },
      { name: 'claimed_lamports', type: T.u64 },
    ],
  };
  const status: EnumItem = {
    name: 'VaultStatus',
    doc: ['Lifecycle of the vault.'],
    attrs: ['#[derive(AnchorSerialize, AnchorDeserialize, Clone, Copy, PartialEq, Eq)]'],
    variants: ['Active', 'Triggered', 'Released'],
  };
  const initArgs: StructItem = {
    name: 'InitializeArgs',
    doc: ['Per-plan values, passed once at initialisation.'],
    attrs: ['#[derive(AnchorSerialize, AnchorDeserialize, Clone)]'],
    fields: [
      { name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryShare')), doc: ['1 to 50 beneficiaries.'] },
      ...(sw
        ? [
            { name: 'interval_days', type: T.u32, doc: ['Days after the last check-in before the switch may trigger.'] },
            { name: 'grace_period_days', type: T.u32, doc: ['Days after a trigger before claims open.'] },
          ]
        : []),
      ...(ms
        ? [
            { name: 'guardians', type: T.vec(T.pubkey), doc: ['1 to 10 guardians.'] },
            { name: 'threshold', type: T.u8, doc: ['Guardians needed to confirm (m of n).'] },
          ]
        : []),
    ],
  };

  // ---- state
  const vault: StructItem = {
    name: 'Vault',
    doc: ['The inheritance vault: a PDA of the owner that holds SOL and owns the token accounts.'],
    attrs: ['#[account]'],
    fields: [
      { name: 'owner', type: T.pubkey },
      { name: 'bump', type: T.u8 },
      { name: 'status', type: T.defined('VaultStatus') },
      { name: 'created_at', type: T.i64 },
      { name: 'released_at', type: T.i64 },
      { name: 'total_claimed_lamports', type: T.u64 },
      ...(sw
        ? [
            { name: 'last_check_in', type: T.i64 },
            { name: 'interval_seconds', type: T.i64 },
            { name: 'grace_seconds', type: T.i64 },
            { name: 'triggered_at', type: T.i64 },
          ]
        : []),
      ...(ms
        ? [
            { name: 'threshold', type: T.u8 },
            { name: 'release_approvals', type: T.u16, doc: ['Bit i set: guardian i confirmed release.'] },
            { name: 'early_release_at', type: T.i64, doc: ["When the guardians' early release opens the claims (0: none); any owner action clears it."] },
            ...(sw
              ? [
                  { name: 'veto_votes', type: T.u16, doc: ['Bit i set: guardian i vetoed the trigger.'] },
                  { name: 'vetoes_used', type: T.u8, doc: ["Vetoes that postponed the release since the owner's last sign of life."] },
                ]
              : []),
            { name: 'guardians', type: T.vec(T.pubkey) },
          ]
        : []),
      { name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryState')) },
    ],
  };
  const ledger: StructItem = {
    name: 'TokenLedger',
    doc: ['Per vault and mint: tokens claimed so far, so late deposits are shared.'],
    attrs: ['#[account]'],
    fields: [
      { name: 'vault', type: T.pubkey },
      { name: 'mint', type: T.pubkey },
      { name: 'total_claimed', type: T.u64 },
      { name: 'bump', type: T.u8 },
    ],
  };
  const claimRecord: StructItem = {
    name: 'ClaimRecord',
    doc: ['Per vault, mint and beneficiary: tokens claimed so far.'],
    attrs: ['#[account]'],
    fields: [
      { name: 'vault', type: T.pubkey },
      { name: 'mint', type: T.pubkey },
      { name: 'beneficiary', type: T.pubkey },
      { name: 'claimed', type: T.u64 },
      { name: 'bump', type: T.u8 },
    ],
  };
  const types: Array<StructItem | EnumItem> = [beneficiaryShare, beneficiaryState, status, initArgs];
  const state = [vault, ...(spl ? [ledger, claimRecord] : [])];
  const lookup = (n: string) => [...types, ...state].find((x) => x.name === n);
  const baseLen = borshSize(T.defined('Vault'), lookup);
  const beneficiaryLen = borshSize(T.defined('BeneficiaryState'), lookup);

  // ---- events
  const ev = (name: string, doc: string, fields: StructItem['fields']): StructItem => ({
    name,
    doc: [doc],
    attrs: ['#[event]'],
    fields: [{ name: 'vault', type: T.pubkey }, ...fields],
  });
  const events: StructItem[] = [
    ev('VaultInitialized', 'The vault was created.', [
      { name: 'owner', type: T.pubkey },
      { name: 'beneficiaries', type: T.u8 },
    ]),
    ev('BeneficiariesUpdated', 'The owner replaced the beneficiaries.', [{ name: 'beneficiaries', type: T.u8 }]),
    ev('VaultReleased', 'Claims are open.', [{ name: 'claims_open_at', type: T.i64 }]),
    ev('Claimed', 'A beneficiary claimed its share.', [
      { name: 'beneficiary', type: T.pubkey },
      { name: 'mint', type: T.option(T.pubkey) },
      { name: 'amount', type: T.u64 },
    ]),
    ev('VaultCancelled', 'The owner closed the vault.', []),
    ev('Deposited', 'Someone added SOL (mint None) or tokens of a mint to the vault.', [
      { name: 'depositor', type: T.pubkey },
      { name: 'mint', type: T.option(T.pubkey) },
      { name: 'amount', type: T.u64 },
    ]),
    ev('Withdrawn', 'The owner took SOL (mint None) or tokens of a mint back.', [
      { name: 'owner', type: T.pubkey },
      { name: 'mint', type: T.option(T.pubkey) },
      { name: 'amount', type: T.u64 },
    ]),
    ...(sw ? [ev('CheckedIn', 'The owner checked in.', [{ name: 'deadline', type: T.i64 }])] : []),
    ...(ms && sw ? [ev('TriggerVetoed', 'Guardians vetoed the trigger.', [{ name: 'deadline', type: T.i64 }])] : []),
    ...(ms ? [ev('GuardiansUpdated', 'The owner replaced the guardians.', [{ name: 'threshold', type: T.u8 }])] : []),
    ...(ms
      ? [
          ev('ReleaseApproved', 'A guardian approved an early release (approvals is the vote mask).', [
            { name: 'guardian', type: T.pubkey },
            { name: 'approvals', type: T.u16 },
          ]),
          ev('ReleaseProposed', "The guardians' quorum proposed an early release; it opens the claims at release_at unless the owner acts first.", [
            { name: 'release_at', type: T.i64 },
          ]),
        ]
      : []),
    ...(ms && sw
      ? [
          ev('VetoCast', 'A guardian vetoed the trigger during the grace period (votes is the vote mask).', [
            { name: 'guardian', type: T.pubkey },
            { name: 'votes', type: T.u16 },
          ]),
        ]
      : []),
  ];

  // ---- errors
  const errors = [
    ['NotOwner', 'Only the owner may do this'],
    ['InvalidShares', 'Shares must be positive and sum to 10000 basis points'],
    ['TooManyBeneficiaries', 'Between 1 and 50 beneficiaries are allowed'],
    ['DuplicateBeneficiary', 'A beneficiary appears twice'],
    ['InvalidBeneficiary', 'A beneficiary may be neither the default key nor the owner'],
    ['NotBeneficiary', 'The signer is not a beneficiary'],
    ['OwnerWindowClosed', 'The deadline has passed or the vault is no longer active'],
    ['NotReleased', 'Claims are not open yet'],
    ['AlreadyReleased', 'The vault is already released'],
    ['NothingToClaim', 'Nothing to claim'],
    ['ZeroAmount', 'The amount must be positive'],
    ['InsufficientFunds', 'Not enough funds above the rent-exempt minimum'],
    ['Overflow', 'Arithmetic overflow'],
    ...(sw
      ? [
          ['InvalidInterval', 'The interval must be 1 to 3650 days'],
          ['InvalidGracePeriod', 'The grace period must be 0 to 365 days'],
          ['NotActive', 'The vault is not active'],
          ['DeadlineNotReached', 'The check-in deadline has not passed'],
        ]
      : []),
    ...(ms
      ? [
          ['InvalidGuardians', 'Guardians must be 1 to 10 distinct keys other than the owner'],
          ['InvalidThreshold', 'The threshold must be between 1 and the number of guardians'],
          ['NotGuardian', 'The signer is not a guardian'],
        ]
      : []),
    ...(ms && sw
      ? [
          ['NotInGracePeriod', 'Vetoes are only possible during the grace period'],
          ['VetoLimitReached', "The guardians already postponed the release the most times allowed since the owner's last sign of life"],
        ]
      : []),
  ].map(([name, msg]) => ({ name: name!, msg: msg! }));

  // ---- constants
  const consts: ConstItem[] = [
    { name: 'TEMPLATE', type: '&str', value: `"${s.template}"`, doc: ['Inheritance template this program was generated for.'] },
    { name: 'MAX_BENEFICIARIES', type: 'usize', value: '50' },
    { name: 'BPS_TOTAL', type: 'u16', value: '10_000' },
    ...(sw
      ? [
          { name: 'SECONDS_PER_DAY', type: 'i64', value: '86_400' },
          { name: 'MAX_INTERVAL_DAYS', type: 'u32', value: '3_650' },
          { name: 'MAX_GRACE_DAYS', type: 'u32', value: '365' },
        ]
      : []),
    ...(ms
      ? [
          { name: 'MAX_GUARDIANS', type: 'usize', value: '10' },
          { name: 'GUARDIAN_WAIT_SECONDS', type: 'i64', value: String(GUARDIAN_WAIT_DAYS * 86_400), doc: ["Seconds of the owner's silence before the guardians' early release opens the claims."] },
        ]
      : []),
    ...(ms && sw ? [{ name: 'MAX_VETOES', type: 'u8', value: String(MAX_VETOES), doc: ["Vetoes that may postpone a release after the owner's last sign of life."] }] : []),
  ];

  // ---- helpers (free functions)
  const helpers: FnItem[] = [
    {
      name: 'validate_beneficiaries',
      doc: ['Shares positive and summing to 10,000 bps; no duplicate, default or owner key.'],
      pub: false,
      params: 'list: &[BeneficiaryShare], owner: &Pubkey',
      ret: 'Result<()>',
      body: [
        `require!(!list.is_empty() && list.len() <= MAX_BENEFICIARIES, ${E('TooManyBeneficiaries')});`,
        'let mut total: u32 = 0;',
        {
          head: 'for (i, b) in list.iter().enumerate()',
          body: [
            `require!(b.share_bps > 0, ${E('InvalidShares')});`,
            `require!(b.wallet != Pubkey::default() && b.wallet != *owner, ${E('InvalidBeneficiary')});`,
            `require!(list[..i].iter().all(|o| o.wallet != b.wallet), ${E('DuplicateBeneficiary')});`,
            'total += u32::from(b.share_bps);',
          ],
        },
        `require!(total == u32::from(BPS_TOTAL), ${E('InvalidShares')});`,
        'Ok(())',
      ],
    },
    {
      name: 'entitlement',
      doc: ["What a share of the total received still owes: total * share / 10,000 minus what was claimed."],
      pub: false,
      params: 'total_received: u64, share_bps: u16, already_claimed: u64',
      ret: 'Result<u64>',
      body: [
        'let owed = u128::from(total_received)',
        '    .checked_mul(u128::from(share_bps))',
        `    .ok_or(${E('Overflow')})?`,
        '    / u128::from(BPS_TOTAL);',
        `let owed = u64::try_from(owed).map_err(|_| ${E('Overflow')})?;`,
        'Ok(owed.saturating_sub(already_claimed))',
      ],
    },
    {
      name: 'available_lamports',
      doc: ['Lamports above the rent-exempt minimum of an account.'],
      pub: false,
      params: 'info: &AccountInfo',
      ret: 'Result<u64>',
      body: ['let minimum = Rent::get()?.minimum_balance(info.data_len());', 'Ok(info.lamports().saturating_sub(minimum))'],
    },
    {
      name: 'move_lamports',
      doc: ['Moves lamports out of an account this program owns.'],
      pub: false,
      params: 'from: &AccountInfo, to: &AccountInfo, amount: u64',
      ret: 'Result<()>',
      body: [
        `let from_balance = from.lamports().checked_sub(amount).ok_or(${E('InsufficientFunds')})?;`,
        `let to_balance = to.lamports().checked_add(amount).ok_or(${E('Overflow')})?;`,
        '**from.try_borrow_mut_lamports()? = from_balance;',
        '**to.try_borrow_mut_lamports()? = to_balance;',
        'Ok(())',
      ],
    },
    ...(ms
      ? [
          {
            name: 'validate_guardians',
            doc: ['1 to 10 distinct guardians other than the owner, threshold 1..=n.'],
            pub: false,
            params: 'list: &[Pubkey], threshold: u8, owner: &Pubkey',
            ret: 'Result<()>',
            body: [
              `require!(!list.is_empty() && list.len() <= MAX_GUARDIANS, ${E('InvalidGuardians')});`,
              {
                head: 'for (i, g) in list.iter().enumerate()',
                body: [`require!(*g != Pubkey::default() && g != owner && !list[..i].contains(g), ${E('InvalidGuardians')});`],
              },
              `require!(threshold >= 1 && usize::from(threshold) <= list.len(), ${E('InvalidThreshold')});`,
              'Ok(())',
            ],
          } satisfies FnItem,
        ]
      : []),
  ];

  // ---- Vault impl
  const vaultImpl: ImplItem = {
    target: 'Vault',
    consts: [
      { name: 'BASE_LEN', type: 'usize', value: String(baseLen), doc: ['Serialised size without the discriminator, with empty vectors.'] },
    ],
    fns: [
      {
        name: 'space',
        doc: ['Account size for a number of beneficiaries' + (ms ? ' and guardians.' : '.')],
        pub: true,
        params: ms ? 'beneficiaries: usize, guardians: usize' : 'beneficiaries: usize',
        ret: 'usize',
        body: [
          `8 + Self::BASE_LEN + beneficiaries * BeneficiaryState::LEN${ms ? ' + guardians * 32' : ''}`,
        ],
      },
      {
        name: 'beneficiary_index',
        doc: [],
        pub: true,
        params: '&self, wallet: &Pubkey',
        ret: 'Option<usize>',
        body: ['self.beneficiaries.iter().position(|b| b.wallet == *wallet)'],
      },
      ...(ms
        ? [
            {
              name: 'guardian_index',
              doc: [],
              pub: true,
              params: '&self, key: &Pubkey',
              ret: 'Option<usize>',
              body: ['self.guardians.iter().position(|g| g == key)'],
            } satisfies FnItem,
          ]
        : []),
      ...(sw
        ? [
            {
              name: 'deadline',
              doc: ['Last check-in plus the interval.'],
              pub: true,
              params: '&self',
              ret: 'i64',
              body: ['self.last_check_in.saturating_add(self.interval_seconds)'],
            } satisfies FnItem,
          ]
        : []),
      {
        name: 'claims_open',
        doc: [
          (sw ? 'Released, or triggered and past the grace period' : 'Released by the owner') +
            (ms ? ", or the guardians' early release came and the owner stayed silent until then." : '.'),
        ],
        pub: true,
        params: sw || ms ? '&self, now: i64' : '&self, _now: i64',
        ret: 'bool',
        body: [
          ...(ms ? ['let by_guardians = self.early_release_at > 0 && now >= self.early_release_at;'] : []),
          {
            head: 'match self.status',
            body: [
              'VaultStatus::Released => true,',
              sw
                ? `VaultStatus::Triggered => ${ms ? 'by_guardians || ' : ''}now >= self.triggered_at.saturating_add(self.grace_seconds),`
                : `VaultStatus::Triggered => ${ms ? 'by_guardians' : 'false'},`,
              `VaultStatus::Active => ${ms ? 'by_guardians' : 'false'},`,
            ],
          },
        ],
      },
      {
        name: 'owner_window_open',
        doc: ['The owner may update, withdraw or cancel: the vault is active' + (sw ? ' and the deadline has not passed' : '') + (ms ? ", and no guardians' early release took effect." : '.')],
        pub: true,
        params: sw || ms ? '&self, now: i64' : '&self, _now: i64',
        ret: 'bool',
        body: [(sw ? 'self.status == VaultStatus::Active && now < self.deadline()' : 'self.status == VaultStatus::Active') + (ms ? ' && !self.claims_open(now)' : '')],
      },
      ...(sw || ms
        ? [
            {
              name: 'prove_life',
              doc: [
                'Any owner action is proof of life' + (sw ? ': the deadline becomes now + interval and a pending trigger is cancelled' : '') +
                  (ms ? "; pending guardian votes and the guardians' early release are cleared" + (sw ? ', and the vetoes are given back' : '') : '') + '.',
              ],
              pub: true,
              params: sw ? '&mut self, now: i64' : '&mut self, _now: i64',
              body: [
                ...(sw ? ['self.status = VaultStatus::Active;', 'self.triggered_at = 0;', 'self.last_check_in = now;'] : []),
                ...(ms ? ['self.release_approvals = 0;', 'self.early_release_at = 0;'] : []),
                ...(ms && sw ? ['self.veto_votes = 0;', 'self.vetoes_used = 0;'] : []),
              ],
            } satisfies FnItem,
          ]
        : []),
    ],
  };
  const stateImpl = (name: string): ImplItem => ({
    target: name,
    consts: [{ name: 'LEN', type: 'usize', value: String(borshSize(T.defined(name), lookup)) }],
    fns: [],
  });
  const impls: ImplItem[] = [vaultImpl, stateImpl('BeneficiaryState'), ...(spl ? [stateImpl('TokenLedger'), stateImpl('ClaimRecord')] : [])];

  // ---- instructions and their accounts
  const instructions: Instruction[] = [];
  const accountsStructs: AccountsStruct[] = [];
  const add = (ix: Instruction, acc: Omit<AccountsStruct, 'name'>) => {
    instructions.push(ix);
    accountsStructs.push({ name: ix.accounts, ...acc });
  };
  const now: Block = ['let now = Clock::get()?.unix_timestamp;'];
  const toStates = 'iter().map(|b| BeneficiaryState { wallet: b.wallet, share_bps: b.share_bps, claimed_lamports: 0 }).collect();';
  /** Every owner action is proof of life (only where a deadline or the guardians exist). */
  const proves = sw || ms;
  const proveLife = (target: string): Block => (proves ? [`${target}.prove_life(now);`] : []);
  const ownerDepositProvesLife: Block = proves
    ? [
        ...now,
        {
          head: 'if ctx.accounts.depositor.key() == ctx.accounts.vault.owner && ctx.accounts.vault.status != VaultStatus::Released && !ctx.accounts.vault.claims_open(now)',
          body: ["// The owner's deposit is proof of life.", 'ctx.accounts.vault.prove_life(now);'],
        },
      ]
    : [];

  add(
    {
      name: 'initialize',
      doc: ['Creates the vault with the plan\'s beneficiaries' + (sw ? ', interval and grace period' : '') + (ms ? ' and guardians' : '') + '.'],
      accounts: 'Initialize',
      args: [{ name: 'args', type: T.defined('InitializeArgs') }],
      body: [
        'let owner = ctx.accounts.owner.key();',
        'validate_beneficiaries(&args.beneficiaries, &owner)?;',
        ...(sw
          ? [
              `require!(args.interval_days >= 1 && args.interval_days <= MAX_INTERVAL_DAYS, ${E('InvalidInterval')});`,
              `require!(args.grace_period_days <= MAX_GRACE_DAYS, ${E('InvalidGracePeriod')});`,
            ]
          : []),
        ...(ms ? ['validate_guardians(&args.guardians, args.threshold, &owner)?;'] : []),
        ...now,
        'let vault = &mut ctx.accounts.vault;',
        'vault.owner = owner;',
        'vault.bump = ctx.bumps.vault;',
        'vault.status = VaultStatus::Active;',
        'vault.created_at = now;',
        'vault.released_at = 0;',
        'vault.total_claimed_lamports = 0;',
        ...(sw
          ? [
              'vault.last_check_in = now;',
              'vault.interval_seconds = i64::from(args.interval_days) * SECONDS_PER_DAY;',
              'vault.grace_seconds = i64::from(args.grace_period_days) * SECONDS_PER_DAY;',
              'vault.triggered_at = 0;',
            ]
          : []),
        ...(ms
          ? [
              'vault.threshold = args.threshold;',
              'vault.release_approvals = 0;',
              'vault.early_release_at = 0;',
              ...(sw ? ['vault.veto_votes = 0;', 'vault.vetoes_used = 0;'] : []),
              'vault.guardians = args.guardians.clone();',
            ]
          : []),
        `vault.beneficiaries = args.beneficiaries.${toStates}`,
        'emit!(VaultInitialized { vault: vault.key(), owner, beneficiaries: args.beneficiaries.len() as u8 });',
        'Ok(())',
      ],
    },
    {
      doc: [],
      instructionArgs: [{ name: 'args', type: T.defined('InitializeArgs') }],
      fields: [
        ownerSigner('The owner; pays for the vault account.'),
        {
          name: 'vault',
          doc: ['The vault, a PDA of the owner; one per owner.'],
          type: { kind: 'account', of: 'Vault' },
          constraints: [
            { k: 'init', ifNeeded: false, payer: 'owner', space: `Vault::space(${ms ? 'args.beneficiaries.len(), args.guardians.len()' : 'args.beneficiaries.len()'})` },
            { k: 'seeds', seeds: [{ kind: 'const', value: 'vault' }, { kind: 'key', account: 'owner' }], bump: null },
          ],
        },
        systemProgram,
      ],
    },
  );

  add(
    {
      name: 'deposit_sol',
      doc: ['Anyone may add SOL; deposits made after the release are shared too.'],
      accounts: 'DepositSol',
      args: [{ name: 'amount', type: T.u64 }],
      body: [
        `require!(amount > 0, ${E('ZeroAmount')});`,
        'let accounts = system_program::Transfer {',
        '    from: ctx.accounts.depositor.to_account_info(),',
        '    to: ctx.accounts.vault.to_account_info(),',
        '};',
        'system_program::transfer(CpiContext::new(ctx.accounts.system_program.to_account_info(), accounts), amount)?;',
        ...ownerDepositProvesLife,
        'emit!(Deposited { vault: ctx.accounts.vault.key(), depositor: ctx.accounts.depositor.key(), mint: None, amount });',
        'Ok(())',
      ],
    },
    {
      doc: [],
      instructionArgs: [],
      fields: [
        { name: 'depositor', doc: ['Whoever sends the SOL.'], type: { kind: 'signer' }, constraints: [{ k: 'mut' }] },
        publicVault(true),
        systemProgram,
      ],
    },
  );

  if (sw) {
    add(
      {
        name: 'check_in',
        doc: ['The owner proves to be alive: the deadline becomes now + interval, and a pending trigger is cancelled.'],
        accounts: 'CheckIn',
        args: [],
        body: [
          ...now,
          'let vault = &mut ctx.accounts.vault;',
          `require!(!vault.claims_open(now), ${E('AlreadyReleased')});`,
          'vault.prove_life(now);',
          'emit!(CheckedIn { vault: vault.key(), deadline: vault.deadline() });',
          'Ok(())',
        ],
      },
      { doc: [], instructionArgs: [], fields: [ownerSigner(), ownerVault(true)] },
    );
    add(
      {
        name: 'trigger',
        doc: ['Anyone may trigger the switch once the deadline has passed; claims open after the grace period.'],
        accounts: 'Trigger',
        args: [],
        body: [
          ...now,
          'let vault = &mut ctx.accounts.vault;',
          `require!(vault.status == VaultStatus::Active, ${E('NotActive')});`,
          `require!(now >= vault.deadline(), ${E('DeadlineNotReached')});`,
          'vault.status = VaultStatus::Triggered;',
          'vault.triggered_at = now;',
          'emit!(VaultReleased { vault: vault.key(), claims_open_at: now.saturating_add(vault.grace_seconds) });',
          'Ok(())',
        ],
      },
      {
        doc: [],
        instructionArgs: [],
        fields: [{ name: 'caller', doc: ['Anyone; pays the fee.'], type: { kind: 'signer' }, constraints: [] }, publicVault(true)],
      },
    );
  } else {
    add(
      {
        name: 'release',
        doc: [
          'Without a dead man\'s switch the owner (or an executor holding the owner key) opens the claims' +
            (ms ? '; guardians can also do so with `confirm_release`.' : '.'),
        ],
        accounts: 'Release',
        args: [],
        body: [
          ...now,
          'let vault = &mut ctx.accounts.vault;',
          `require!(vault.status == VaultStatus::Active, ${E('AlreadyReleased')});`,
          'vault.status = VaultStatus::Released;',
          'vault.released_at = now;',
          'emit!(VaultReleased { vault: vault.key(), claims_open_at: now });',
          'Ok(())',
        ],
      },
      { doc: [], instructionArgs: [], fields: [ownerSigner(), ownerVault(true)] },
    );
  }

  if (ms) {
    add(
      {
        name: 'confirm_release',
        doc: [
          "A guardian confirms the owner's absence; at the threshold an early release is proposed, which opens the claims",
          'GUARDIAN_WAIT_SECONDS later unless the owner acts first (any owner instruction cancels it): guardians never overrule a living owner.',
        ],
        accounts: 'ConfirmRelease',
        args: [],
        body: [
          ...now,
          'let guardian = ctx.accounts.guardian.key();',
          'let vault = &mut ctx.accounts.vault;',
          `require!(vault.status != VaultStatus::Released && !vault.claims_open(now), ${E('AlreadyReleased')});`,
          `let index = vault.guardian_index(&guardian).ok_or(${E('NotGuardian')})?;`,
          'vault.release_approvals |= 1u16 << index;',
          'emit!(ReleaseApproved { vault: vault.key(), guardian, approvals: vault.release_approvals });',
          {
            head: 'if vault.release_approvals.count_ones() >= u32::from(vault.threshold) && vault.early_release_at == 0',
            body: [
              'vault.early_release_at = now.saturating_add(GUARDIAN_WAIT_SECONDS);',
              'emit!(ReleaseProposed { vault: vault.key(), release_at: vault.early_release_at });',
            ],
          },
          'Ok(())',
        ],
      },
      {
        doc: [],
        instructionArgs: [],
        fields: [
          { name: 'guardian', doc: ['One of the guardians.'], type: { kind: 'signer' }, constraints: [] },
          publicVault(true, [guardianBound]),
        ],
      },
    );
    if (sw) {
      add(
        {
          name: 'veto',
          doc: ["During the grace period, guardians can veto a wrong trigger; at the threshold the deadline restarts, at most MAX_VETOES times after the owner's last sign of life."],
          accounts: 'Veto',
          args: [],
          body: [
            ...now,
            'let guardian = ctx.accounts.guardian.key();',
            'let vault = &mut ctx.accounts.vault;',
            `require!(vault.status == VaultStatus::Triggered && !vault.claims_open(now), ${E('NotInGracePeriod')});`,
            `require!(vault.vetoes_used < MAX_VETOES, ${E('VetoLimitReached')});`,
            `let index = vault.guardian_index(&guardian).ok_or(${E('NotGuardian')})?;`,
            'vault.veto_votes |= 1u16 << index;',
            'emit!(VetoCast { vault: vault.key(), guardian, votes: vault.veto_votes });',
            {
              head: 'if vault.veto_votes.count_ones() >= u32::from(vault.threshold)',
              body: [
                'vault.status = VaultStatus::Active;',
                'vault.triggered_at = 0;',
                'vault.last_check_in = now;',
                'vault.veto_votes = 0;',
                'vault.vetoes_used += 1;',
                'emit!(TriggerVetoed { vault: vault.key(), deadline: vault.deadline() });',
              ],
            },
            'Ok(())',
          ],
        },
        {
          doc: [],
          instructionArgs: [],
          fields: [
            { name: 'guardian', doc: ['One of the guardians.'], type: { kind: 'signer' }, constraints: [] },
            publicVault(true, [guardianBound]),
          ],
        },
      );
    }
  }

  add(
    {
      name: 'update_beneficiaries',
      doc: [
        `The owner replaces the beneficiaries ${ownerWindow}. The account only grows (never shrinks), so a resize never`,
        "moves the estate's SOL: growth rent comes from the vault's balance above its minimum, else from the owner.",
      ],
      accounts: 'UpdateBeneficiaries',
      args: [{ name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryShare')) }],
      body: [
        'validate_beneficiaries(&beneficiaries, &ctx.accounts.owner.key())?;',
        ...now,
        'let vault = &mut ctx.accounts.vault;',
        `require!(vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
        ...proveLife('vault'),
        `vault.beneficiaries = beneficiaries.${toStates}`,
        'emit!(BeneficiariesUpdated { vault: vault.key(), beneficiaries: beneficiaries.len() as u8 });',
        'Ok(())',
      ],
    },
    {
      doc: [],
      instructionArgs: [{ name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryShare')) }],
      fields: [
        ownerSigner('The owner; pays or receives the rent difference.'),
        ownerVault(true, [
          {
            k: 'realloc',
            space: `Vault::space(${ms ? 'beneficiaries.len(), vault.guardians.len()' : 'beneficiaries.len()'}).max(vault.to_account_info().data_len())`,
            payer: 'owner',
            zero: false,
          },
        ]),
        systemProgram,
      ],
    },
  );

  if (ms) {
    add(
      {
        name: 'update_guardians',
        doc: [`The owner replaces the guardians and threshold ${ownerWindow}; approvals restart.`],
        accounts: 'UpdateGuardians',
        args: [
          { name: 'guardians', type: T.vec(T.pubkey) },
          { name: 'threshold', type: T.u8 },
        ],
        body: [
          'validate_guardians(&guardians, threshold, &ctx.accounts.owner.key())?;',
          ...now,
          'let vault = &mut ctx.accounts.vault;',
          `require!(vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
          'vault.prove_life(now);',
          'vault.guardians = guardians;',
          'vault.threshold = threshold;',
          'emit!(GuardiansUpdated { vault: vault.key(), threshold });',
          'Ok(())',
        ],
      },
      {
        doc: [],
        instructionArgs: [
          { name: 'guardians', type: T.vec(T.pubkey) },
          { name: 'threshold', type: T.u8 },
        ],
        fields: [
          ownerSigner('The owner; pays or receives the rent difference.'),
          ownerVault(true, [{ k: 'realloc', space: 'Vault::space(vault.beneficiaries.len(), guardians.len()).max(vault.to_account_info().data_len())', payer: 'owner', zero: false }]),
          systemProgram,
        ],
      },
    );
  }

  add(
    {
      name: 'withdraw_sol',
      doc: [`The owner takes SOL back ${ownerWindow}, keeping the vault rent-exempt.`],
      accounts: 'WithdrawSol',
      args: [{ name: 'amount', type: T.u64 }],
      body: [
        ...now,
        `require!(ctx.accounts.vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
        ...proveLife('ctx.accounts.vault'),
        'let vault_info = ctx.accounts.vault.to_account_info();',
        `require!(amount > 0 && amount <= available_lamports(&vault_info)?, ${E('InsufficientFunds')});`,
        'move_lamports(&vault_info, &ctx.accounts.owner.to_account_info(), amount)?;',
        'emit!(Withdrawn { vault: ctx.accounts.vault.key(), owner: ctx.accounts.owner.key(), mint: None, amount });',
        'Ok(())',
      ],
    },
    { doc: [], instructionArgs: [], fields: [ownerSigner(), ownerVault(true)] },
  );

  add(
    {
      name: 'cancel',
      doc: [
        `The owner cancels the plan ${ownerWindow}: the vault closes and all its SOL returns to the owner.`,
        spl ? 'Withdraw tokens first with `withdraw_token`; the vault token accounts stay owned by the vault PDA.' : 'The owner may create a new vault afterwards.',
      ],
      accounts: 'Cancel',
      args: [],
      body: [
        ...now,
        `require!(ctx.accounts.vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
        'emit!(VaultCancelled { vault: ctx.accounts.vault.key() });',
        'Ok(())',
      ],
    },
    { doc: [], instructionArgs: [], fields: [ownerSigner(), ownerVault(true, [{ k: 'close', to: 'owner' }])] },
  );

  add(
    {
      name: 'claim_sol',
      doc: ["A beneficiary claims its share of all SOL the vault has received, minus what it already claimed."],
      accounts: 'ClaimSol',
      args: [],
      body: [
        ...now,
        'let beneficiary = ctx.accounts.beneficiary.key();',
        'let vault_info = ctx.accounts.vault.to_account_info();',
        'let available = available_lamports(&vault_info)?;',
        'let vault = &mut ctx.accounts.vault;',
        `require!(vault.claims_open(now), ${E('NotReleased')});`,
        `let index = vault.beneficiary_index(&beneficiary).ok_or(${E('NotBeneficiary')})?;`,
        `let total_received = available.checked_add(vault.total_claimed_lamports).ok_or(${E('Overflow')})?;`,
        'let share_bps = vault.beneficiaries[index].share_bps;',
        'let claimed = vault.beneficiaries[index].claimed_lamports;',
        'let due = entitlement(total_received, share_bps, claimed)?;',
        `require!(due > 0, ${E('NothingToClaim')});`,
        `vault.beneficiaries[index].claimed_lamports = claimed.checked_add(due).ok_or(${E('Overflow')})?;`,
        `vault.total_claimed_lamports = vault.total_claimed_lamports.checked_add(due).ok_or(${E('Overflow')})?;`,
        'move_lamports(&vault_info, &ctx.accounts.beneficiary.to_account_info(), due)?;',
        'emit!(Claimed { vault: vault.key(), beneficiary, mint: None, amount: due });',
        'Ok(())',
      ],
    },
    {
      doc: [],
      instructionArgs: [],
      fields: [
        { name: 'beneficiary', doc: ['The claiming beneficiary.'], type: { kind: 'signer' }, constraints: [{ k: 'mut' }] },
        publicVault(true, [beneficiaryBound]),
      ],
    },
  );

  if (spl) {
    const signerSeeds: Block = [
      'let owner_key = ctx.accounts.vault.owner;',
      'let bump = [ctx.accounts.vault.bump];',
      'let seeds: &[&[u8]] = &[b"vault", owner_key.as_ref(), &bump];',
      'let signer = &[seeds];',
    ];
    add(
      {
        name: 'deposit_token',
        doc: ["Anyone may add SPL tokens to the vault's associated token account."],
        accounts: 'DepositToken',
        args: [{ name: 'amount', type: T.u64 }],
        body: [
          `require!(amount > 0, ${E('ZeroAmount')});`,
          'let accounts = TransferChecked {',
          '    from: ctx.accounts.depositor_token_account.to_account_info(),',
          '    mint: ctx.accounts.mint.to_account_info(),',
          '    to: ctx.accounts.vault_token_account.to_account_info(),',
          '    authority: ctx.accounts.depositor.to_account_info(),',
          '};',
          'token::transfer_checked(CpiContext::new(ctx.accounts.token_program.to_account_info(), accounts), amount, ctx.accounts.mint.decimals)?;',
          ...ownerDepositProvesLife,
          'emit!(Deposited { vault: ctx.accounts.vault.key(), depositor: ctx.accounts.depositor.key(), mint: Some(ctx.accounts.mint.key()), amount });',
          'Ok(())',
        ],
      },
      {
        doc: [],
        instructionArgs: [],
        fields: [
          { name: 'depositor', doc: ['Whoever sends the tokens; pays for the vault token account if needed.'], type: { kind: 'signer' }, constraints: [{ k: 'mut' }] },
          publicVault(proves),
          mintAccount,
          {
            name: 'depositor_token_account',
            doc: [],
            type: { kind: 'account', of: 'TokenAccount', boxed: true },
            constraints: [{ k: 'mut' }, { k: 'token', mint: 'mint', authority: 'depositor' }],
          },
          vaultTokenAccount({ payer: 'depositor' }),
          tokenProgram,
          ataProgram,
          systemProgram,
        ],
      },
    );
    add(
      {
        name: 'withdraw_token',
        doc: [`The owner takes tokens back ${ownerWindow}.`],
        accounts: 'WithdrawToken',
        args: [{ name: 'amount', type: T.u64 }],
        body: [
          ...now,
          `require!(ctx.accounts.vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
          `require!(amount > 0 && amount <= ctx.accounts.vault_token_account.amount, ${E('InsufficientFunds')});`,
          ...proveLife('ctx.accounts.vault'),
          ...signerSeeds,
          'let accounts = TransferChecked {',
          '    from: ctx.accounts.vault_token_account.to_account_info(),',
          '    mint: ctx.accounts.mint.to_account_info(),',
          '    to: ctx.accounts.owner_token_account.to_account_info(),',
          '    authority: ctx.accounts.vault.to_account_info(),',
          '};',
          'let cpi = CpiContext::new_with_signer(ctx.accounts.token_program.to_account_info(), accounts, signer);',
          'token::transfer_checked(cpi, amount, ctx.accounts.mint.decimals)?;',
          'emit!(Withdrawn { vault: ctx.accounts.vault.key(), owner: ctx.accounts.owner.key(), mint: Some(ctx.accounts.mint.key()), amount });',
          'Ok(())',
        ],
      },
      {
        doc: [],
        instructionArgs: [],
        fields: [
          ownerSigner(),
          ownerVault(proves),
          mintAccount,
          vaultTokenAccount(null),
          {
            name: 'owner_token_account',
            doc: [],
            type: { kind: 'account', of: 'TokenAccount', boxed: true },
            constraints: [{ k: 'mut' }, { k: 'token', mint: 'mint', authority: 'owner' }],
          },
          tokenProgram,
        ],
      },
    );
    add(
      {
        name: 'claim_token',
        doc: ['A beneficiary claims its share of all tokens of one mint the vault has received, minus what it already claimed.'],
        accounts: 'ClaimToken',
        args: [],
        body: [
          ...now,
          'let beneficiary = ctx.accounts.beneficiary.key();',
          'let vault_key = ctx.accounts.vault.key();',
          'let mint_key = ctx.accounts.mint.key();',
          `require!(ctx.accounts.vault.claims_open(now), ${E('NotReleased')});`,
          `let index = ctx.accounts.vault.beneficiary_index(&beneficiary).ok_or(${E('NotBeneficiary')})?;`,
          'let share_bps = ctx.accounts.vault.beneficiaries[index].share_bps;',
          'let ledger = &mut ctx.accounts.ledger;',
          {
            head: 'if ledger.vault == Pubkey::default()',
            body: ['ledger.vault = vault_key;', 'ledger.mint = mint_key;', 'ledger.bump = ctx.bumps.ledger;'],
          },
          'let record = &mut ctx.accounts.claim_record;',
          {
            head: 'if record.vault == Pubkey::default()',
            body: ['record.vault = vault_key;', 'record.mint = mint_key;', 'record.beneficiary = beneficiary;', 'record.bump = ctx.bumps.claim_record;'],
          },
          `let total_received = ctx.accounts.vault_token_account.amount.checked_add(ledger.total_claimed).ok_or(${E('Overflow')})?;`,
          'let due = entitlement(total_received, share_bps, record.claimed)?;',
          `require!(due > 0, ${E('NothingToClaim')});`,
          `record.claimed = record.claimed.checked_add(due).ok_or(${E('Overflow')})?;`,
          `ledger.total_claimed = ledger.total_claimed.checked_add(due).ok_or(${E('Overflow')})?;`,
          ...signerSeeds,
          'let accounts = TransferChecked {',
          '    from: ctx.accounts.vault_token_account.to_account_info(),',
          '    mint: ctx.accounts.mint.to_account_info(),',
          '    to: ctx.accounts.beneficiary_token_account.to_account_info(),',
          '    authority: ctx.accounts.vault.to_account_info(),',
          '};',
          'let cpi = CpiContext::new_with_signer(ctx.accounts.token_program.to_account_info(), accounts, signer);',
          'token::transfer_checked(cpi, due, ctx.accounts.mint.decimals)?;',
          'emit!(Claimed { vault: vault_key, beneficiary, mint: Some(mint_key), amount: due });',
          'Ok(())',
        ],
      },
      {
        doc: [],
        instructionArgs: [],
        fields: [
          { name: 'beneficiary', doc: ['The claiming beneficiary; pays for its records and token account if needed.'], type: { kind: 'signer' }, constraints: [{ k: 'mut' }] },
          publicVault(false, [beneficiaryBound]),
          mintAccount,
          vaultTokenAccount(null),
          {
            name: 'beneficiary_token_account',
            doc: [],
            type: { kind: 'account', of: 'TokenAccount', boxed: true },
            constraints: [
              { k: 'init', ifNeeded: true, payer: 'beneficiary' },
              { k: 'associated_token', mint: 'mint', authority: 'beneficiary' },
            ],
          },
          {
            name: 'ledger',
            doc: [],
            type: { kind: 'account', of: 'TokenLedger' },
            constraints: [
              { k: 'init', ifNeeded: true, payer: 'beneficiary', space: '8 + TokenLedger::LEN' },
              { k: 'seeds', seeds: [{ kind: 'const', value: 'ledger' }, { kind: 'key', account: 'vault' }, { kind: 'key', account: 'mint' }], bump: null },
            ],
          },
          {
            name: 'claim_record',
            doc: [],
            type: { kind: 'account', of: 'ClaimRecord' },
            constraints: [
              { k: 'init', ifNeeded: true, payer: 'beneficiary', space: '8 + ClaimRecord::LEN' },
              {
                k: 'seeds',
                seeds: [
                  { kind: 'const', value: 'claim' },
                  { kind: 'key', account: 'vault' },
                  { kind: 'key', account: 'mint' },
                  { kind: 'key', account: 'beneficiary' },
                ],
                bump: null,
              },
            ],
          },
          tokenProgram,
          ataProgram,
          systemProgram,
        ],
      },
    );
  }

  const releasePath = sw
    ? [
        `Release: after \`interval_days\` without a \`check_in\`, anyone calls \`trigger\`; claims open \`grace_period_days\` later.`,
        'During the grace period the owner can still `check_in`' + (ms ? ' and the guardians can `veto` (m of n).' : '.'),
      ]
    : ['Release: this plan has no dead man\'s switch; the owner (or an executor holding the owner key) calls `release`.'];
  if (ms) {
    releasePath.push(
      `Guardians confirm the owner's absence with \`confirm_release\` (m of n); the claims open ${GUARDIAN_WAIT_DAYS} days later unless the owner acts first.` +
        (sw ? ` Vetoes postpone a release at most ${MAX_VETOES} times after the owner's last sign of life.` : ''),
    );
  }
  if (sw || ms) releasePath.push('Every owner instruction (check-in, update, withdrawal, the owner\'s own deposit) is proof of life.');

  return {
    crateName: CRATE_NAME,
    programId: placeholderProgramId(s),
    headerDoc: [
      'svc inheritance vault (Anchor).',
      '',
      `Template: ${s.template}. ${TEMPLATE_NOTES[s.template]}`,
      `Features: ${shapeFeatures(s).join(', ') || 'none'}.`,
      '',
      'A PDA vault per owner holds SOL' + (spl ? ' and SPL tokens' : '') + '; beneficiaries each claim their share (basis points)',
      'of everything the vault has received, so deposits made after the release are shared too.',
      'The owner may update the beneficiaries, withdraw or cancel while the vault is active' + (sw ? ' and before the deadline.' : '.'),
      ...releasePath,
      '',
      'Generated by svc. Build with `anchor build` (Anchor 0.31); `anchor keys sync` replaces the placeholder id.',
    ],
    uses: [
      'anchor_lang::prelude::*',
      'anchor_lang::system_program',
      ...(spl ? ['anchor_spl::associated_token::AssociatedToken', 'anchor_spl::token::{self, Mint, Token, TokenAccount, TransferChecked}'] : []),
    ],
    consts,
    moduleDoc: ['Instructions of the inheritance vault.'],
    instructions,
    helpers,
    accountsStructs,
    state,
    impls,
    types,
    events,
    errors: { name: ERR, variants: errors },
  };
}

/** Byte sizes of the program's accounts (including the 8-byte discriminator). */
export function accountSizes(m: ProgramModel, beneficiaries: number, guardians = 0): Record<string, number> {
  const lookup = (n: string) => [...m.types, ...m.state].find((x) => x.name === n);
  const out: Record<string, number> = {};
  for (const s of m.state) {
    out[s.name] = 8 + borshSize({ kind: 'defined', name: s.name }, lookup, (f) => (f === 'beneficiaries' ? beneficiaries : f === 'guardians' ? guardians : 0));
  }
  return out;
}

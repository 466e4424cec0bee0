import { T, borshSize, type EnumItem, type FnItem, type ImplItem, type StructItem } from '../model.js';
import { E, errors, ev, type SolanaProgramBuilder } from '../builder.js';
import { addEstateInstructions } from './estate.js';

/**
 * The vault every shape has: its account and types, the owner, the
 * beneficiaries and their shares, SOL deposits, withdrawals and claims. Runs
 * last: it assembles the extension points the other features filled (the
 * Vault's fields, `initialize`, proof of life, when claims open).
 */
export function addCore(b: SolanaProgramBuilder): void {
  b.add('uses', 'core', 'anchor_lang::prelude::*', 'anchor_lang::system_program');
  b.add(
    'consts',
    'core',
    {
      name: 'TEMPLATE',
      type: '&str',
      value: `"${b.s.template}"`,
      doc: ['Inheritance template this program was generated for.'],
    },
    { name: 'MAX_BENEFICIARIES', type: 'usize', value: '50' },
    { name: 'BPS_TOTAL', type: 'u16', value: '10_000' },
  );
  b.add('types', 'core', ...types(b));
  b.add('state', 'core', vaultAccount(b));
  addEvents(b);
  b.add(
    'errors',
    'core',
    ...errors(
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
    ),
  );
  b.add('helpers', 'core', ...helpers());
  addVaultMethods(b);
  addEstateInstructions(b);
  b.add('impls', 'core', ...impls(b));
}

const derive = (...traits: string[]): string =>
  `#[derive(${['AnchorSerialize', 'AnchorDeserialize', ...traits].join(', ')})]`;

function types(b: SolanaProgramBuilder): Array<StructItem | EnumItem> {
  return [
    {
      name: 'BeneficiaryShare',
      doc: ['A beneficiary as given to `initialize` and `update_beneficiaries`.'],
      attrs: [derive('Clone', 'PartialEq', 'Eq')],
      fields: [
        { name: 'wallet', type: T.pubkey, doc: ['Wallet that may claim.'] },
        { name: 'share_bps', type: T.u16, doc: ['Share in basis points; all shares sum to 10,000.'] },
      ],
    },
    {
      name: 'BeneficiaryState',
      doc: ['A beneficiary as stored in the vault, with the lamports already claimed.'],
      attrs: [derive('Clone', 'PartialEq', 'Eq')],
      fields: [
        { name: 'wallet', type: T.pubkey },
        { name: 'share_bps', type: T.u16 },
        { name: 'claimed_lamports', type: T.u64 },
      ],
    },
    {
      name: 'VaultStatus',
      doc: ['Lifecycle of the vault.'],
      attrs: [derive('Clone', 'Copy', 'PartialEq', 'Eq')],
      variants: ['Active', 'Triggered', 'Released'],
    },
    {
      name: 'InitializeArgs',
      doc: ['Per-plan values, passed once at initialisation.'],
      attrs: [derive('Clone')],
      fields: [
        { name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryShare')), doc: ['1 to 50 beneficiaries.'] },
        ...b.initArgs,
      ],
    },
  ];
}

function vaultAccount(b: SolanaProgramBuilder): StructItem {
  return {
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
      ...b.vaultFields,
      { name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryState')) },
    ],
  };
}

function addEvents(b: SolanaProgramBuilder): void {
  b.add(
    'events',
    'core',
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
  );
}

function helpers(): FnItem[] {
  return [
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
      doc: ['What a share of the total received still owes: total * share / 10,000 minus what was claimed.'],
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
      body: [
        'let minimum = Rent::get()?.minimum_balance(info.data_len());',
        'Ok(info.lamports().saturating_sub(minimum))',
      ],
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
  ];
}

/** Vault methods: its size, the beneficiary look-up, when claims open, the owner's window and proof of life. */
function addVaultMethods(b: SolanaProgramBuilder): void {
  const vectors = b.vaultVectors;
  b.add(
    'vaultFns',
    'core.lookup',
    {
      name: 'space',
      doc: ['Account size for a number of beneficiaries' + vectors.map((v) => ` and ${v.name}`).join('') + '.'],
      pub: true,
      params: ['beneficiaries: usize', ...vectors.map((v) => `${v.name}: usize`)].join(', '),
      ret: 'usize',
      body: [
        '8 + Self::BASE_LEN + beneficiaries * BeneficiaryState::LEN' +
          vectors.map((v) => ` + ${v.name} * ${v.size}`).join(''),
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
  );
  const open = b.claimsOpen;
  const usesNow = open.early !== undefined || open.afterGrace !== undefined;
  const nowParam = (self: string) => `${self}, ${usesNow ? 'now' : '_now'}: i64`;
  b.add(
    'vaultFns',
    'core.status',
    {
      name: 'claims_open',
      doc: [open.doc + open.docs.join('') + '.'],
      pub: true,
      params: nowParam('&self'),
      ret: 'bool',
      body: [
        ...open.prelude,
        {
          head: 'match self.status',
          body: [
            'VaultStatus::Released => true,',
            `VaultStatus::Triggered => ${[open.early, open.afterGrace].filter((x) => x !== undefined).join(' || ') || 'false'},`,
            `VaultStatus::Active => ${open.early ?? 'false'},`,
          ],
        },
      ],
    },
    {
      name: 'owner_window_open',
      doc: ['The owner may update, withdraw or cancel: the vault is active' + b.ownerWindowOpen.docs.join('') + '.'],
      pub: true,
      params: nowParam('&self'),
      ret: 'bool',
      body: [['self.status == VaultStatus::Active', ...b.ownerWindowOpen.conds].join(' && ')],
    },
  );
  if (b.provesLife) {
    b.add('vaultFns', 'core.status', {
      name: 'prove_life',
      doc: ['Any owner action is proof of life' + b.proofOfLife.docs.join('') + '.'],
      pub: true,
      params: b.proofOfLife.usesNow ? '&mut self, now: i64' : '&mut self, _now: i64',
      body: b.proofOfLife.body,
    });
  }
}

/** The Vault's impl (its base size and methods), then the size of every other account. */
function impls(b: SolanaProgramBuilder): ImplItem[] {
  const types = b.list('types');
  const state = b.list('state');
  const lookup = (n: string) => [...types, ...state].find((x) => x.name === n);
  const len = (name: string): ImplItem => ({
    target: name,
    consts: [{ name: 'LEN', type: 'usize', value: String(borshSize(T.defined(name), lookup)) }],
    fns: [],
  });
  const vault: ImplItem = {
    target: 'Vault',
    consts: [
      {
        name: 'BASE_LEN',
        type: 'usize',
        value: String(borshSize(T.defined('Vault'), lookup)),
        doc: ['Serialised size without the discriminator, with empty vectors.'],
      },
    ],
    fns: b.list('vaultFns'),
  };
  return [vault, len('BeneficiaryState'), ...state.filter((s) => s.name !== 'Vault').map((s) => len(s.name))];
}

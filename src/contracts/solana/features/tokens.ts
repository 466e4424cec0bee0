import { T, type AccountField, type Block, type StructItem } from '../model.js';
import {
  E,
  beneficiaryBound,
  now,
  ownerSigner,
  ownerVault,
  publicVault,
  systemProgram,
  type InstructionPair,
  type SolanaProgramBuilder,
} from '../builder.js';

const tokenProgram: AccountField = {
  name: 'token_program',
  doc: [],
  type: { kind: 'program', of: 'Token' },
  constraints: [],
};
const ataProgram: AccountField = {
  name: 'associated_token_program',
  doc: [],
  type: { kind: 'program', of: 'AssociatedToken' },
  constraints: [],
};
const mintAccount: AccountField = {
  name: 'mint',
  doc: ['The SPL token mint.'],
  type: { kind: 'account', of: 'Mint', boxed: true },
  constraints: [],
};

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

/** Seeds of the vault PDA, so the program can sign transfers out of the vault's token account. */
const signerSeeds: Block = [
  'let owner_key = ctx.accounts.vault.owner;',
  'let bump = [ctx.accounts.vault.bump];',
  'let seeds: &[&[u8]] = &[b"vault", owner_key.as_ref(), &bump];',
  'let signer = &[seeds];',
];

/** A checked transfer of `amount` out of the vault's token account to `to`, signed by the vault. */
const transferFromVault = (to: string, amount: string): Block => [
  ...signerSeeds,
  'let accounts = TransferChecked {',
  '    from: ctx.accounts.vault_token_account.to_account_info(),',
  '    mint: ctx.accounts.mint.to_account_info(),',
  `    to: ctx.accounts.${to}.to_account_info(),`,
  '    authority: ctx.accounts.vault.to_account_info(),',
  '};',
  'let cpi = CpiContext::new_with_signer(ctx.accounts.token_program.to_account_info(), accounts, signer);',
  `token::transfer_checked(cpi, ${amount}, ctx.accounts.mint.decimals)?;`,
];

/**
 * SPL tokens: anyone deposits into the vault's associated token account, the
 * owner withdraws while the plan is live, and each beneficiary claims its
 * share of everything received per mint, recorded in a ledger and a claim
 * record so late deposits are shared too.
 */
export function addTokens(b: SolanaProgramBuilder): void {
  if (!b.s.splTokens) return;
  b.cancelNote = 'Withdraw tokens first with `withdraw_token`; the vault token accounts stay owned by the vault PDA.';
  b.add(
    'uses',
    'tokens',
    'anchor_spl::associated_token::AssociatedToken',
    'anchor_spl::token::{self, Mint, Token, TokenAccount, TransferChecked}',
  );
  b.add('state', 'tokens', ...records());
  b.add('instructions', 'tokens', depositToken(b), withdrawToken(b), claimToken());
}

function records(): StructItem[] {
  return [
    {
      name: 'TokenLedger',
      doc: ['Per vault and mint: tokens claimed so far, so late deposits are shared.'],
      attrs: ['#[account]'],
      fields: [
        { name: 'vault', type: T.pubkey },
        { name: 'mint', type: T.pubkey },
        { name: 'total_claimed', type: T.u64 },
        { name: 'bump', type: T.u8 },
      ],
    },
    {
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
    },
  ];
}

function depositToken(b: SolanaProgramBuilder): InstructionPair {
  return {
    ix: {
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
        ...b.ownerDepositProvesLife(),
        'emit!(Deposited { vault: ctx.accounts.vault.key(), depositor: ctx.accounts.depositor.key(), mint: Some(ctx.accounts.mint.key()), amount });',
        'Ok(())',
      ],
    },
    accounts: {
      doc: [],
      instructionArgs: [],
      fields: [
        {
          name: 'depositor',
          doc: ['Whoever sends the tokens; pays for the vault token account if needed.'],
          type: { kind: 'signer' },
          constraints: [{ k: 'mut' }],
        },
        publicVault(b.provesLife),
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
  };
}

function withdrawToken(b: SolanaProgramBuilder): InstructionPair {
  return {
    ix: {
      name: 'withdraw_token',
      doc: [`The owner takes tokens back ${b.ownerWindow}.`],
      accounts: 'WithdrawToken',
      args: [{ name: 'amount', type: T.u64 }],
      body: [
        ...now,
        `require!(ctx.accounts.vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
        `require!(amount > 0 && amount <= ctx.accounts.vault_token_account.amount, ${E('InsufficientFunds')});`,
        ...b.proveLife('ctx.accounts.vault'),
        ...transferFromVault('owner_token_account', 'amount'),
        'emit!(Withdrawn { vault: ctx.accounts.vault.key(), owner: ctx.accounts.owner.key(), mint: Some(ctx.accounts.mint.key()), amount });',
        'Ok(())',
      ],
    },
    accounts: {
      doc: [],
      instructionArgs: [],
      fields: [
        ownerSigner(),
        ownerVault(b.provesLife),
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
  };
}

function claimToken(): InstructionPair {
  return {
    ix: {
      name: 'claim_token',
      doc: [
        'A beneficiary claims its share of all tokens of one mint the vault has received, minus what it already claimed.',
      ],
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
          body: [
            'record.vault = vault_key;',
            'record.mint = mint_key;',
            'record.beneficiary = beneficiary;',
            'record.bump = ctx.bumps.claim_record;',
          ],
        },
        `let total_received = ctx.accounts.vault_token_account.amount.checked_add(ledger.total_claimed).ok_or(${E('Overflow')})?;`,
        'let due = entitlement(total_received, share_bps, record.claimed)?;',
        `require!(due > 0, ${E('NothingToClaim')});`,
        `record.claimed = record.claimed.checked_add(due).ok_or(${E('Overflow')})?;`,
        `ledger.total_claimed = ledger.total_claimed.checked_add(due).ok_or(${E('Overflow')})?;`,
        ...transferFromVault('beneficiary_token_account', 'due'),
        'emit!(Claimed { vault: vault_key, beneficiary, mint: Some(mint_key), amount: due });',
        'Ok(())',
      ],
    },
    accounts: { doc: [], instructionArgs: [], fields: claimTokenAccounts() },
  };
}

function claimTokenAccounts(): AccountField[] {
  return [
    {
      name: 'beneficiary',
      doc: ['The claiming beneficiary; pays for its records and token account if needed.'],
      type: { kind: 'signer' },
      constraints: [{ k: 'mut' }],
    },
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
        {
          k: 'seeds',
          seeds: [
            { kind: 'const', value: 'ledger' },
            { kind: 'key', account: 'vault' },
            { kind: 'key', account: 'mint' },
          ],
          bump: null,
        },
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
  ];
}

import { T } from '../model.js';
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

const toStates =
  'iter().map(|b| BeneficiaryState { wallet: b.wallet, share_bps: b.share_bps, claimed_lamports: 0 }).collect();';

/** The vault's own instructions: set-up, SOL deposits, the beneficiaries, withdrawal, cancel and SOL claims. */
export function addEstateInstructions(b: SolanaProgramBuilder): void {
  b.add('instructions', 'core.setup', initialize(b), depositSol(b));
  b.add('instructions', 'core.beneficiaries', updateBeneficiaries(b));
  b.add('instructions', 'core', withdrawSol(b), cancel(b), claimSol());
}

/** The arguments of Vault::space for a new list of beneficiaries, the other vectors as `vectorsOf` names them. */
const spaceArgs = (b: SolanaProgramBuilder, beneficiaries: string, vectorsOf: string): string =>
  [beneficiaries, ...b.vaultVectors.map((v) => `${vectorsOf}${v.name}.len()`)].join(', ');

function initialize(b: SolanaProgramBuilder): InstructionPair {
  return {
    ix: {
      name: 'initialize',
      doc: ["Creates the vault with the plan's beneficiaries" + b.init.docs.join('') + '.'],
      accounts: 'Initialize',
      args: [{ name: 'args', type: T.defined('InitializeArgs') }],
      body: [
        'let owner = ctx.accounts.owner.key();',
        'validate_beneficiaries(&args.beneficiaries, &owner)?;',
        ...b.init.checks,
        ...now,
        'let vault = &mut ctx.accounts.vault;',
        'vault.owner = owner;',
        'vault.bump = ctx.bumps.vault;',
        'vault.status = VaultStatus::Active;',
        'vault.created_at = now;',
        'vault.released_at = 0;',
        'vault.total_claimed_lamports = 0;',
        ...b.init.fields,
        `vault.beneficiaries = args.beneficiaries.${toStates}`,
        'emit!(VaultInitialized { vault: vault.key(), owner, beneficiaries: args.beneficiaries.len() as u8 });',
        'Ok(())',
      ],
    },
    accounts: {
      doc: [],
      instructionArgs: [{ name: 'args', type: T.defined('InitializeArgs') }],
      fields: [
        ownerSigner('The owner; pays for the vault account.'),
        {
          name: 'vault',
          doc: ['The vault, a PDA of the owner; one per owner.'],
          type: { kind: 'account', of: 'Vault' },
          constraints: [
            {
              k: 'init',
              ifNeeded: false,
              payer: 'owner',
              space: `Vault::space(${spaceArgs(b, 'args.beneficiaries.len()', 'args.')})`,
            },
            {
              k: 'seeds',
              seeds: [
                { kind: 'const', value: 'vault' },
                { kind: 'key', account: 'owner' },
              ],
              bump: null,
            },
          ],
        },
        systemProgram,
      ],
    },
  };
}

function depositSol(b: SolanaProgramBuilder): InstructionPair {
  return {
    ix: {
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
        ...b.ownerDepositProvesLife(),
        'emit!(Deposited { vault: ctx.accounts.vault.key(), depositor: ctx.accounts.depositor.key(), mint: None, amount });',
        'Ok(())',
      ],
    },
    accounts: {
      doc: [],
      instructionArgs: [],
      fields: [
        { name: 'depositor', doc: ['Whoever sends the SOL.'], type: { kind: 'signer' }, constraints: [{ k: 'mut' }] },
        publicVault(true),
        systemProgram,
      ],
    },
  };
}

function updateBeneficiaries(b: SolanaProgramBuilder): InstructionPair {
  return {
    ix: {
      name: 'update_beneficiaries',
      doc: [
        `The owner replaces the beneficiaries ${b.ownerWindow}. The account only grows (never shrinks), so a resize never`,
        "moves the estate's SOL: growth rent comes from the vault's balance above its minimum, else from the owner.",
      ],
      accounts: 'UpdateBeneficiaries',
      args: [{ name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryShare')) }],
      body: [
        'validate_beneficiaries(&beneficiaries, &ctx.accounts.owner.key())?;',
        ...now,
        'let vault = &mut ctx.accounts.vault;',
        `require!(vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
        ...b.proveLife('vault'),
        `vault.beneficiaries = beneficiaries.${toStates}`,
        'emit!(BeneficiariesUpdated { vault: vault.key(), beneficiaries: beneficiaries.len() as u8 });',
        'Ok(())',
      ],
    },
    accounts: {
      doc: [],
      instructionArgs: [{ name: 'beneficiaries', type: T.vec(T.defined('BeneficiaryShare')) }],
      fields: [
        ownerSigner('The owner; pays or receives the rent difference.'),
        ownerVault(true, [
          {
            k: 'realloc',
            space: `Vault::space(${spaceArgs(b, 'beneficiaries.len()', 'vault.')}).max(vault.to_account_info().data_len())`,
            payer: 'owner',
            zero: false,
          },
        ]),
        systemProgram,
      ],
    },
  };
}

function withdrawSol(b: SolanaProgramBuilder): InstructionPair {
  return {
    ix: {
      name: 'withdraw_sol',
      doc: [`The owner takes SOL back ${b.ownerWindow}, keeping the vault rent-exempt.`],
      accounts: 'WithdrawSol',
      args: [{ name: 'amount', type: T.u64 }],
      body: [
        ...now,
        `require!(ctx.accounts.vault.owner_window_open(now), ${E('OwnerWindowClosed')});`,
        ...b.proveLife('ctx.accounts.vault'),
        'let vault_info = ctx.accounts.vault.to_account_info();',
        `require!(amount > 0 && amount <= available_lamports(&vault_info)?, ${E('InsufficientFunds')});`,
        'move_lamports(&vault_info, &ctx.accounts.owner.to_account_info(), amount)?;',
        'emit!(Withdrawn { vault: ctx.accounts.vault.key(), owner: ctx.accounts.owner.key(), mint: None, amount });',
        'Ok(())',
      ],
    },
    accounts: { doc: [], instructionArgs: [], fields: [ownerSigner(), ownerVault(true)] },
  };
}

function cancel(b: SolanaProgramBuilder): InstructionPair {
  return {
    ix: {
      name: 'cancel',
      doc: [
        `The owner cancels the plan ${b.ownerWindow}: the vault closes and all its SOL returns to the owner.`,
        b.cancelNote,
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
    accounts: {
      doc: [],
      instructionArgs: [],
      fields: [ownerSigner(), ownerVault(true, [{ k: 'close', to: 'owner' }])],
    },
  };
}

function claimSol(): InstructionPair {
  return {
    ix: {
      name: 'claim_sol',
      doc: ['A beneficiary claims its share of all SOL the vault has received, minus what it already claimed.'],
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
    accounts: {
      doc: [],
      instructionArgs: [],
      fields: [
        {
          name: 'beneficiary',
          doc: ['The claiming beneficiary.'],
          type: { kind: 'signer' },
          constraints: [{ k: 'mut' }],
        },
        publicVault(true, [beneficiaryBound]),
      ],
    },
  };
}

import { Sections } from '../slots.js';
import {
  T,
  type AccountField,
  type AccountsStruct,
  type Block,
  type ConstItem,
  type Constraint,
  type EnumItem,
  type Field,
  type FnItem,
  type ImplItem,
  type Instruction,
  type StructItem,
} from './model.js';
import type { SolanaShape } from './shape.js';

export const ERR = 'InheritanceError';

/** A variant of the program's error enum, as Rust refers to it. */
export const E = (name: string): string => `${ERR}::${name}`;

/**
 * Where each feature's items appear in the generated Anchor program, section
 * by section. A slot named after a feature holds that feature's items; `core`
 * is the vault itself (owner, beneficiaries, SOL).
 */
export const SOLANA_LAYOUT = {
  uses: ['core', 'tokens'],
  consts: ['core', 'switch', 'guardians'],
  /** Instructions in program order: set-up, release, the plan's updates, withdrawal and claims, then tokens. */
  instructions: [
    'core.setup',
    'switch',
    'guardians.release',
    'core.beneficiaries',
    'guardians.update',
    'core',
    'tokens',
  ],
  helpers: ['core', 'guardians'],
  state: ['core', 'tokens'],
  /** Methods of the Vault account: size and look-ups, the deadline, then when claims and the owner's window are open. */
  vaultFns: ['core.lookup', 'guardians', 'switch', 'core.status'],
  impls: ['core'],
  types: ['core'],
  events: ['core', 'switch', 'guardians'],
  errors: ['core', 'switch', 'guardians'],
} as const;

/** An instruction with its accounts struct (named by the instruction). */
export interface InstructionPair {
  ix: Instruction;
  accounts: Omit<AccountsStruct, 'name'>;
}

interface SolanaItems {
  uses: string;
  consts: ConstItem;
  instructions: InstructionPair;
  helpers: FnItem;
  state: StructItem;
  vaultFns: FnItem;
  impls: ImplItem;
  types: StructItem | EnumItem;
  events: StructItem;
  errors: { name: string; msg: string };
}

/**
 * The program under construction for one shape. Features add their items to
 * the sections and fill the extension points below, which the core reads
 * when it assembles what several features share (the Vault account,
 * `initialize`, proof of life, when claims open).
 */
export class SolanaProgramBuilder extends Sections<typeof SOLANA_LAYOUT, SolanaItems> {
  /** When the owner may still change the plan, as a phrase. */
  ownerWindow = 'while the vault is active';
  /** Fields of InitializeArgs after the beneficiaries. */
  readonly initArgs: Field[] = [];
  /** Fields of the Vault account between its bookkeeping and the beneficiaries. */
  readonly vaultFields: Field[] = [];
  /** Vectors of the Vault besides the beneficiaries: its size grows by `size` bytes per item. */
  readonly vaultVectors: Array<{ name: string; size: number }> = [];
  /** `initialize`: what its doc adds to "the plan's beneficiaries", its argument checks and its field settings. */
  readonly init = { docs: [] as string[], checks: [] as Block, fields: [] as Block };
  /** What any owner action resets (Vault::prove_life), with the doc phrases; empty when nothing needs a sign of life. */
  readonly proofOfLife = { docs: [] as string[], body: [] as Block, usesNow: false };
  /** Vault::claims_open: the doc's first phrase, the guardians' prelude and condition, and the switch's condition after the grace period. */
  readonly claimsOpen = {
    doc: 'Released by the owner',
    docs: [] as string[],
    prelude: [] as Block,
    early: undefined as string | undefined,
    afterGrace: undefined as string | undefined,
  };
  /** Vault::owner_window_open: conditions beside an active vault, and the doc phrases that explain them. */
  readonly ownerWindowOpen = { conds: [] as string[], docs: [] as string[] };
  /** Lines of the program header explaining how the estate is released. */
  readonly releaseDoc: string[] = [];
  /** What the last line of the cancel doc says. */
  cancelNote = 'The owner may create a new vault afterwards.';

  constructor(readonly s: SolanaShape) {
    super(SOLANA_LAYOUT);
  }

  /** Whether owner actions prove life (only where a deadline or the guardians exist). */
  get provesLife(): boolean {
    return this.proofOfLife.body.length > 0;
  }

  /** The statements that record an owner's sign of life on `target`, where that matters. */
  proveLife(target: string): Block {
    return this.provesLife ? [`${target}.prove_life(now);`] : [];
  }

  /** In a deposit: the owner's own deposit is a sign of life, where that matters. */
  ownerDepositProvesLife(): Block {
    if (!this.provesLife) return [];
    return [
      ...now,
      {
        head: 'if ctx.accounts.depositor.key() == ctx.accounts.vault.owner && ctx.accounts.vault.status != VaultStatus::Released && !ctx.accounts.vault.claims_open(now)',
        body: ["// The owner's deposit is proof of life.", 'ctx.accounts.vault.prove_life(now);'],
      },
    ];
  }
}

export const now: Block = ['let now = Clock::get()?.unix_timestamp;'];

export const ownerSigner = (doc = 'The vault owner; must sign.'): AccountField => ({
  name: 'owner',
  doc: [doc],
  type: { kind: 'signer' },
  constraints: [{ k: 'mut' }],
});

export const systemProgram: AccountField = {
  name: 'system_program',
  doc: [],
  type: { kind: 'program', of: 'System' },
  constraints: [],
};

/** The vault seen by its owner: PDA of the owner's key, bound to the signer by has_one. */
export function ownerVault(mut: boolean, extra: Constraint[] = []): AccountField {
  return {
    name: 'vault',
    doc: ['The inheritance vault (PDA of the owner).'],
    type: { kind: 'account', of: 'Vault' },
    constraints: [
      ...(mut ? [{ k: 'mut' } as const] : []),
      {
        k: 'seeds',
        seeds: [
          { kind: 'const', value: 'vault' },
          { kind: 'key', account: 'owner' },
        ],
        bump: 'vault.bump',
      },
      { k: 'has_one', target: 'owner', error: E('NotOwner') },
      ...extra,
    ],
  };
}

/** The vault seen by anyone else: PDA re-derived from the owner stored in it. */
export function publicVault(mut: boolean, extra: Constraint[] = []): AccountField {
  return {
    name: 'vault',
    doc: ['The inheritance vault (PDA of its owner).'],
    type: { kind: 'account', of: 'Vault' },
    constraints: [
      ...(mut ? [{ k: 'mut' } as const] : []),
      {
        k: 'seeds',
        seeds: [
          { kind: 'const', value: 'vault' },
          { kind: 'field', account: 'vault', field: 'owner', accountType: 'Vault' },
        ],
        bump: 'vault.bump',
      },
      ...extra,
    ],
  };
}

export const beneficiaryBound = {
  k: 'constraint',
  expr: 'vault.beneficiary_index(&beneficiary.key()).is_some()',
  error: E('NotBeneficiary'),
} as const;

/** An `#[event]` struct; every event names its vault first. */
export const ev = (name: string, doc: string, fields: StructItem['fields']): StructItem => ({
  name,
  doc: [doc],
  attrs: ['#[event]'],
  fields: [{ name: 'vault', type: T.pubkey }, ...fields],
});

/** Error variants from [name, message] pairs. */
export const errors = (...list: Array<[string, string]>): Array<{ name: string; msg: string }> =>
  list.map(([name, msg]) => ({ name, msg }));

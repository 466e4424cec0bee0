import { Sections } from '../slots.js';
import type { EvmShape } from './shape.js';
import type {
  ErrorDef,
  EventDef,
  FunctionDef,
  InterfaceDef,
  ModifierDef,
  NatSpec,
  SolParam,
  StateVariable,
  Stmt,
  StructDef,
} from './solidity.js';

/**
 * Where each feature's items appear in the generated Solidity source, section
 * by section. A slot named after a feature holds that feature's items; `core`
 * is the estate itself (owner, beneficiaries, ETH, check-in).
 */
export const EVM_LAYOUT = {
  interfaces: ['tokens', 'nfts'],
  structs: ['nfts'],
  constants: ['core', 'switch', 'guardians', 'tokens', 'nfts'],
  /** Immutables first, then the status flags, then the accounting. */
  state: [
    'core.immutable',
    'switch.immutable',
    'guardians.immutable',
    'core.flags',
    'switch.flags',
    'core',
    'guardians',
    'tokens',
    'nfts',
  ],
  errors: ['core', 'tokens', 'rescue', 'switch', 'guardians', 'nfts'],
  events: ['core', 'cancel', 'rescue', 'switch', 'guardians', 'tokens', 'nfts'],
  modifiers: ['core', 'guardians'],
  /** Views, owner actions, claims, each feature's own functions, receive, private helpers. */
  functions: [
    'core.views',
    'switch.views',
    'core.status',
    'core.owner',
    'cancel',
    'rescue',
    'switch.owner',
    'core.claims',
    'guardians',
    'tokens',
    'nfts',
    'core.receive',
    'core.internals',
    'tokens.internals',
    'nfts.internals',
  ],
} as const;

interface EvmItems {
  interfaces: InterfaceDef;
  structs: StructDef;
  constants: StateVariable;
  state: StateVariable;
  errors: ErrorDef;
  events: EventDef;
  modifiers: ModifierDef;
  functions: FunctionDef;
}

/**
 * The contract under construction for one shape. Features add their items to
 * the sections, and fill the extension points below, which the core reads
 * when it assembles the pieces several features share (constructor, check-in,
 * release condition, owner checks, cancel).
 */
export class EvmContractBuilder extends Sections<typeof EVM_LAYOUT, EvmItems> {
  /** Constructor parameters, their documentation and statements, after the owner's and before the beneficiaries'. */
  readonly ctor = { params: [] as SolParam[], docs: {} as Record<string, string>, body: [] as Stmt[] };
  /** The deadline the constructor announces in its first CheckedIn event. */
  firstDeadline = 'type(uint256).max';
  /** When the owner may still change the plan, as a phrase. */
  ownerWindow = 'before release';
  /** A statement that stops owner actions once the deadline passed (with a switch). */
  deadlineCheck: Stmt | undefined;
  /** Conditions, any of which releases the estate. */
  readonly releasedWhen: string[] = [];
  /** What an owner's sign of life resets, besides the check-in time. */
  readonly proofOfLife: Stmt[] = [];
  /** How cancel() returns each kind of listed asset, before the ETH. */
  readonly cancelReturns: Stmt[] = [];
  /** checkIn(): its notice, the other owner actions that prove life, and notes for its dev comment. */
  readonly checkIn = {
    notice: 'Owner proves being alive; recorded for the record.',
    actions: ['deposit', 'update', 'withdrawal', 'rescue'],
    notes: [] as string[],
  };
  /** The first sentence of the contract's dev comment: how the estate is released. */
  releaseDoc = '';

  constructor(readonly s: EvmShape) {
    super(EVM_LAYOUT);
  }
}

export const p = (type: string, name?: string, location?: SolParam['location']): SolParam =>
  location ? { type, name, location } : name ? { type, name } : { type };

export interface FnOpts {
  vis?: FunctionDef['visibility'];
  mut?: FunctionDef['mutability'];
  mods?: string[];
  returns?: SolParam[];
}

/** A documented function, external unless `opts.vis` says otherwise. */
export function fn(name: string, natspec: NatSpec, params: SolParam[], opts: FnOpts, body: Stmt[]): FunctionDef {
  const f: FunctionDef = { kind: 'function', name, params, visibility: opts.vis ?? 'external', body, natspec };
  if (opts.mut) f.mutability = opts.mut;
  if (opts.mods) f.modifiers = opts.mods;
  if (opts.returns) f.returns = opts.returns;
  return f;
}

/** A private helper function. */
export function priv(name: string, params: SolParam[], opts: FnOpts, body: Stmt[]): FunctionDef {
  const f: FunctionDef = { kind: 'function', name, params, visibility: 'private', body };
  if (opts.mut) f.mutability = opts.mut;
  if (opts.returns) f.returns = opts.returns;
  return f;
}

/** A view function without parameters that returns one value. */
export const getter = (
  name: string,
  natspec: NatSpec,
  type: string,
  expr: string,
  vis?: FunctionDef['visibility'],
): FunctionDef =>
  fn(name, natspec, [], { ...(vis ? { vis } : {}), mut: 'view', returns: [p(type)] }, [`return ${expr}`]);

export const ifThen = (cond: string, ...body: Stmt[]): Stmt => ({ head: `if (${cond})`, body });
export const loop = (n: string, ...body: Stmt[]): Stmt => ({ head: `for (uint256 i; i < ${n}; ++i)`, body });

/** A constant state variable. */
export const constant = (type: string, name: string, value: string, doc: string): StateVariable => ({
  type,
  name,
  visibility: 'public',
  mutability: 'constant',
  value,
  doc,
});

/** A private state variable. */
export const variable = (type: string, name: string, doc?: string): StateVariable => ({
  type,
  name,
  visibility: 'private',
  ...(doc ? { doc } : {}),
});

/** A private immutable. */
export const immutable = (type: string, name: string, doc?: string): StateVariable => ({
  type,
  name,
  visibility: 'private',
  mutability: 'immutable',
  ...(doc ? { doc } : {}),
});

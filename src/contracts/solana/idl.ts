/**
 * The Anchor IDL (spec 0.1.0, as written by Anchor 0.30+) derived from the
 * program model, plus the helpers the checker uses to derive the same shapes
 * from parsed source.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { AccountField, ProgramModel, RustType, Seed, StructItem, EnumItem } from './model.js';

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

export const PROGRAM_ADDRESSES: Record<string, string> = {
  System: SYSTEM_PROGRAM_ID,
  Token: TOKEN_PROGRAM_ID,
  AssociatedToken: ASSOCIATED_TOKEN_PROGRAM_ID,
};

export type IdlType = string | { vec: IdlType } | { option: IdlType } | { defined: { name: string } };
export type IdlSeed =
  | { kind: 'const'; value: number[] }
  | { kind: 'account'; path: string; account?: string }
  | { kind: 'arg'; path: string };
export interface IdlPda {
  seeds: IdlSeed[];
  program?: { kind: 'const'; value: number[] };
}
export interface IdlAccountItem {
  name: string;
  writable?: true;
  signer?: true;
  address?: string;
  pda?: IdlPda;
  /** Accounts whose `has_one` names this one. */
  relations?: string[];
}
export interface IdlInstruction {
  name: string;
  docs?: string[];
  discriminator: number[];
  accounts: IdlAccountItem[];
  args: Array<{ name: string; type: IdlType }>;
}

export function discriminator(namespace: 'global' | 'account' | 'event', name: string): number[] {
  return [...createHash('sha256').update(`${namespace}:${name}`).digest().subarray(0, 8)];
}

export function idlType(t: RustType): IdlType {
  switch (t.kind) {
    case 'prim':
      return t.name === 'Pubkey' ? 'pubkey' : t.name === 'String' ? 'string' : t.name;
    case 'vec':
      return { vec: idlType(t.of) };
    case 'option':
      return { option: idlType(t.of) };
    case 'defined':
      return { defined: { name: t.name } };
  }
}

export const bytesOf = (s: string): number[] => [...Buffer.from(s, 'utf8')];

export function idlSeed(s: Seed): IdlSeed {
  switch (s.kind) {
    case 'const':
      return { kind: 'const', value: bytesOf(s.value) };
    case 'key':
      return { kind: 'account', path: s.account };
    case 'field':
      return { kind: 'account', path: `${s.account}.${s.field}`, account: s.accountType };
  }
}

/** The PDA of an associated token account, as Anchor's IDL describes it. */
export function ataPda(authority: string, mint: string): IdlPda {
  return {
    seeds: [
      { kind: 'account', path: authority },
      { kind: 'const', value: [...bs58.decode(TOKEN_PROGRAM_ID)] },
      { kind: 'account', path: mint },
    ],
    program: { kind: 'const', value: [...bs58.decode(ASSOCIATED_TOKEN_PROGRAM_ID)] },
  };
}

function idlAccount(f: AccountField): IdlAccountItem {
  const item: IdlAccountItem = { name: f.name };
  if (f.constraints.some((c) => c.k === 'mut' || c.k === 'init' || c.k === 'realloc' || c.k === 'close'))
    item.writable = true;
  if (f.type.kind === 'signer') item.signer = true;
  if (f.type.kind === 'program') item.address = PROGRAM_ADDRESSES[f.type.of];
  for (const c of f.constraints) {
    if (c.k === 'seeds') item.pda = { seeds: c.seeds.map(idlSeed) };
    if (c.k === 'associated_token') item.pda = ataPda(c.authority, c.mint);
  }
  return item;
}

function idlTypeDef(t: StructItem | EnumItem): Record<string, unknown> {
  if ('variants' in t) return { name: t.name, type: { kind: 'enum', variants: t.variants.map((name) => ({ name })) } };
  return {
    name: t.name,
    type: { kind: 'struct', fields: t.fields.map((f) => ({ name: f.name, type: idlType(f.type) })) },
  };
}

export function buildIdl(m: ProgramModel, description: string): Record<string, unknown> {
  const instructions: IdlInstruction[] = m.instructions.map((ix) => {
    const acc = m.accountsStructs.find((a) => a.name === ix.accounts);
    if (!acc) throw new Error(`no accounts struct ${ix.accounts}`);
    return {
      name: ix.name,
      docs: ix.doc,
      discriminator: discriminator('global', ix.name),
      accounts: acc.fields.map((f) => {
        const item = idlAccount(f);
        const relations = acc.fields
          .filter((o) => o.constraints.some((c) => c.k === 'has_one' && c.target === f.name))
          .map((o) => o.name);
        if (relations.length > 0) item.relations = relations;
        return item;
      }),
      args: ix.args.map((a) => ({ name: a.name, type: idlType(a.type) })),
    };
  });
  // External account types (Mint, TokenAccount) are not the program's own; only its #[account] structs are listed.
  return {
    address: m.programId,
    metadata: { name: m.crateName, version: '0.1.0', spec: '0.1.0', description },
    instructions,
    accounts: m.state.map((s) => ({ name: s.name, discriminator: discriminator('account', s.name) })),
    events: m.events.map((e) => ({ name: e.name, discriminator: discriminator('event', e.name) })),
    errors: m.errors.variants.map((v, i) => ({ code: 6000 + i, name: v.name, msg: v.msg })),
    types: [...m.types, ...m.state, ...m.events].map(idlTypeDef),
  };
}

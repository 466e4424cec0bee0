/**
 * Checks of an Anchor program that need no Solana toolchain: a tree-sitter
 * parse without error nodes, and structural rules (every instruction has its
 * accounts struct, every account has a checked type, every mutable account is
 * constrained, every signer is bound, program state is reached through PDA
 * seeds, every state-changing instruction emits an event) and, given an IDL,
 * that the IDL matches the source (events included).
 */
import bs58 from 'bs58';
import {
  ataPda,
  bytesOf,
  discriminator,
  PROGRAM_ADDRESSES,
  type IdlAccountItem,
  type IdlPda,
  type IdlSeed,
  type IdlType,
} from './idl.js';
import { parseAnchorProgram, splitTopLevel, type ParsedField, type ParsedProgram } from './parser.js';

export interface Check {
  name: string;
  passed: boolean;
  detail?: string;
}

/** Account wrappers whose owner and type Anchor verifies on deserialisation. */
const CHECKED_WRAPPERS = new Set([
  'Signer',
  'Account',
  'Program',
  'Sysvar',
  'InterfaceAccount',
  'Interface',
  'AccountLoader',
  'SystemAccount',
]);
const UNCHECKED_WRAPPERS = new Set(['UncheckedAccount', 'AccountInfo']);
/** Signers that may be anyone: they only pay. */
const FREE_SIGNERS = new Set(['payer', 'depositor', 'caller', 'fee_payer']);
const WRITABLE_KEYS = new Set(['mut', 'init', 'init_if_needed', 'realloc', 'close']);
const BINDING_KEYS = ['seeds', 'has_one', 'address', 'constraint', 'associated_token::authority', 'token::authority'];

const has = (f: ParsedField, key: string): boolean => f.constraints.some((c) => c.key === key);
const value = (f: ParsedField, key: string): string | undefined => f.constraints.find((c) => c.key === key)?.value;
const isWritable = (f: ParsedField): boolean => f.constraints.some((c) => WRITABLE_KEYS.has(c.key));

function result(name: string, problems: string[], ok?: string): Check {
  if (problems.length === 0) return ok ? { name, passed: true, detail: ok } : { name, passed: true };
  const shown = problems.slice(0, 5).join('; ');
  return { name, passed: false, detail: problems.length > 5 ? `${shown}; and ${problems.length - 5} more` : shown };
}

/** Rust type text (whitespace removed) → IDL type. */
export function idlTypeOfText(text: string): IdlType {
  const t = text.replace(/\s+/g, '');
  const generic = /^(Vec|Option)<(.*)>$/.exec(t);
  if (generic)
    return generic[1] === 'Vec' ? { vec: idlTypeOfText(generic[2]!) } : { option: idlTypeOfText(generic[2]!) };
  if (t === 'Pubkey') return 'pubkey';
  if (t === 'String') return 'string';
  if (/^(u8|u16|u32|u64|u128|i8|i16|i32|i64|i128|bool|f32|f64)$/.test(t)) return t;
  return { defined: { name: t.split('::').pop()! } };
}

type SourceSeed = IdlSeed | { kind: 'unknown'; text: string };

function sourceSeeds(f: ParsedField, fields: ParsedField[], args: Set<string>): SourceSeed[] | undefined {
  const raw = value(f, 'seeds');
  if (raw === undefined) return undefined;
  const list = raw.trim().replace(/^\[/, '').replace(/\]$/, '');
  return splitTopLevel(list).map((s): SourceSeed => {
    const str = /^b"((?:[^"\\]|\\.)*)"(?:\.as_ref\(\))?$/.exec(s);
    if (str) return { kind: 'const', value: bytesOf(str[1]!) };
    const key = /^([A-Za-z_]\w*)\.key\(\)\.as_ref\(\)$/.exec(s);
    if (key) return { kind: 'account', path: key[1]! };
    const field = /^([A-Za-z_]\w*)\.([A-Za-z_]\w*)\.as_ref\(\)$/.exec(s);
    if (field) {
      const acc = fields.find((x) => x.name === field[1]);
      if (acc)
        return acc.inner
          ? { kind: 'account', path: `${field[1]}.${field[2]}`, account: acc.inner }
          : { kind: 'account', path: `${field[1]}.${field[2]}` };
    }
    const arg = /^([A-Za-z_]\w*)(?:\.as_ref\(\)|\.to_le_bytes\(\)\.as_ref\(\))$/.exec(s);
    if (arg && args.has(arg[1]!)) return { kind: 'arg', path: arg[1]! };
    return { kind: 'unknown', text: s };
  });
}

/** The IDL account entry the source implies. */
type SourceAccount = Omit<IdlAccountItem, 'pda'> & { pda?: IdlPda | { seeds: SourceSeed[] } };

function sourceIdlAccount(f: ParsedField, fields: ParsedField[], args: Set<string>): SourceAccount {
  const item: SourceAccount = { name: f.name };
  if (isWritable(f)) item.writable = true;
  if (f.wrapper === 'Signer') item.signer = true;
  if (f.wrapper === 'Program' && f.inner && PROGRAM_ADDRESSES[f.inner]) item.address = PROGRAM_ADDRESSES[f.inner];
  const seeds = sourceSeeds(f, fields, args);
  if (seeds) item.pda = { seeds };
  const mint = value(f, 'associated_token::mint');
  const authority = value(f, 'associated_token::authority');
  if (mint && authority) item.pda = ataPda(authority, mint);
  return item;
}

const canon = (x: unknown): string =>
  JSON.stringify(x, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, val]) => val !== undefined)
            .sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );

function programChecks(p: ParsedProgram): { checks: Check[]; usable: boolean } {
  const checks: Check[] = [];
  const syntax = p.syntax;
  checks.push(
    result(
      'rust-syntax',
      syntax.map(
        (e) =>
          `${e.kind === 'missing' ? `missing ${e.text}` : `syntax error near "${e.text.replace(/\s+/g, ' ')}"`} at line ${e.line}, column ${e.column}`,
      ),
      'parsed by tree-sitter-rust without error nodes',
    ),
  );

  const mods = p.programModules;
  const modProblems: string[] = [];
  if (mods.length !== 1) modProblems.push(`expected exactly one #[program] module, found ${mods.length}`);
  else if (mods[0]!.instructions.length === 0) modProblems.push('the #[program] module has no public instruction');
  checks.push(
    result(
      'program-module',
      modProblems,
      mods[0] ? `module ${mods[0].name} with ${mods[0].instructions.length} instructions` : undefined,
    ),
  );

  const idProblems: string[] = [];
  if (p.declareIds.length !== 1) idProblems.push(`expected one declare_id!, found ${p.declareIds.length}`);
  for (const id of p.declareIds) {
    let len = -1;
    try {
      len = bs58.decode(id).length;
    } catch {
      /* reported below */
    }
    if (len !== 32) idProblems.push(`declare_id!("${id}") is not a base58 32-byte key`);
  }
  checks.push(result('declare-id', idProblems));

  const instructions = mods.flatMap((m) => m.instructions);
  const structs = new Map(p.accountsStructs.map((s) => [s.name, s]));
  const accProblems: string[] = [];
  for (const ix of instructions) {
    if (!ix.context) accProblems.push(`instruction ${ix.name} (line ${ix.line}) takes no Context<...>`);
    else if (!structs.has(ix.context))
      accProblems.push(
        `instruction ${ix.name} (line ${ix.line}) uses Context<${ix.context}> but no #[derive(Accounts)] struct ${ix.context} exists`,
      );
  }
  checks.push(
    result('accounts-structs', accProblems, `${instructions.length} instructions, each with its accounts struct`),
  );

  const used = [...new Set(instructions.map((i) => i.context).filter((c): c is string => !!c))]
    .map((c) => structs.get(c))
    .filter((s) => !!s);
  const stateTypes = new Set(p.dataStructs.filter((d) => d.attrs.includes('account')).map((d) => d.name));

  const typeProblems: string[] = [];
  const mutProblems: string[] = [];
  const signerProblems: string[] = [];
  const pdaProblems: string[] = [];
  for (const s of p.accountsStructs) {
    for (const f of s.fields) {
      const where = `${s.name}.${f.name} (line ${f.line})`;
      if (UNCHECKED_WRAPPERS.has(f.wrapper)) {
        if (!f.docs.some((d) => d.trim().startsWith('CHECK:')))
          typeProblems.push(`${where} is ${f.wrapper} without a /// CHECK: comment`);
      } else if (!CHECKED_WRAPPERS.has(f.wrapper)) typeProblems.push(`${where} has unchecked type ${f.typeText}`);

      if (isWritable(f) && f.wrapper !== 'Signer') {
        // A plain `init` of a keypair account is safe (Anchor makes it sign); `init_if_needed` needs seeds or a token authority.
        const bound = BINDING_KEYS.some((k) => has(f, k)) || has(f, 'init');
        if (!bound)
          mutProblems.push(`${where} is mutable without seeds, has_one, address, constraint or token authority`);
      }
      if (f.wrapper === 'Account' && f.inner && stateTypes.has(f.inner)) {
        if (!has(f, 'seeds') || !has(f, 'bump'))
          pdaProblems.push(`${where} holds program state ${f.inner} without seeds and bump`);
      }
    }
  }
  for (const s of used) {
    const signers = s.fields.filter((f) => f.wrapper === 'Signer');
    if (signers.length === 0) signerProblems.push(`${s.name} has no signer`);
    for (const sg of signers) {
      if (FREE_SIGNERS.has(sg.name)) continue;
      const keyRef = new RegExp(`\\b${sg.name}\\.key\\(\\)`);
      const bound = s.fields.some(
        (f) =>
          f !== sg &&
          f.constraints.some(
            (c) =>
              (c.key === 'has_one' && c.value?.split('@')[0]?.trim() === sg.name) ||
              ((c.key === 'constraint' || c.key === 'seeds') && c.value !== undefined && keyRef.test(c.value)),
          ),
      );
      if (!bound)
        signerProblems.push(`${s.name}.${sg.name} signs but no has_one, seeds or constraint ties it to the vault`);
    }
  }
  checks.push(result('account-types', typeProblems));
  checks.push(spaceCheck(p, stateTypes));
  checks.push(result('mutable-accounts-checked', mutProblems));
  checks.push(result('signer-checks', signerProblems));
  checks.push(result('pda-state-accounts', pdaProblems));
  return { checks, usable: mods.length === 1 };
}

const PRIMITIVE_SIZES: Record<string, number> = {
  u8: 1,
  i8: 1,
  bool: 1,
  u16: 2,
  i16: 2,
  u32: 4,
  i32: 4,
  u64: 8,
  i64: 8,
  u128: 16,
  i128: 16,
  Pubkey: 32,
};

/**
 * Account sizes: every `init` of program state declares a `space`, and the
 * `LEN` / `BASE_LEN` constants of state and element types equal the Borsh size
 * of the struct as written (vectors counted empty, 4-byte length only).
 */
function spaceCheck(p: ParsedProgram, stateTypes: Set<string>): Check {
  const problems: string[] = [];
  const structs = new Map(p.dataStructs.map((d) => [d.name, d]));
  const enums = new Map(p.enums.map((e) => [e.name, e]));
  const sizeOf = (type: string, seen: string[] = []): number | undefined => {
    const t = type.replace(/\s+/g, '');
    if (PRIMITIVE_SIZES[t] !== undefined) return PRIMITIVE_SIZES[t];
    if (/^Vec<.*>$/.test(t)) return 4;
    const opt = /^Option<(.*)>$/.exec(t);
    if (opt) {
      const inner = sizeOf(opt[1]!, seen);
      return inner === undefined ? undefined : 1 + inner;
    }
    if (enums.has(t)) return 1;
    const d = structs.get(t);
    if (!d || seen.includes(t)) return undefined;
    let n = 0;
    for (const f of d.fields) {
      const x = sizeOf(f.typeText, [...seen, t]);
      if (x === undefined) return undefined;
      n += x;
    }
    return n;
  };
  let compared = 0;
  for (const [target, consts] of p.implConsts) {
    for (const c of consts) {
      if (c.name !== 'LEN' && c.name !== 'BASE_LEN') continue;
      const declared = Number(c.value.replace(/_/g, ''));
      const actual = sizeOf(target);
      if (actual === undefined)
        problems.push(`${target}::${c.name} (line ${c.line}): the size of ${target} cannot be computed`);
      else if (declared !== actual)
        problems.push(
          `${target}::${c.name} is ${c.value} (line ${c.line}) but ${target} serialises to ${actual} bytes`,
        );
      else compared++;
    }
  }
  for (const s of p.accountsStructs) {
    for (const f of s.fields) {
      if ((has(f, 'init') || has(f, 'init_if_needed')) && f.inner && stateTypes.has(f.inner) && !has(f, 'space')) {
        problems.push(`${s.name}.${f.name} (line ${f.line}) initialises ${f.inner} without a space`);
      }
    }
  }
  return result('account-space', problems, `${compared} size constants match their struct layouts`);
}

/**
 * The code of the function body that starts on `line` (1-based), with string
 * and char literals and comments blanked, so that only real code is searched;
 * undefined when no balanced body follows. The parse already located each
 * instruction, so a scan of its text is enough here (no second parse).
 */
function functionBodyCode(source: string, line: number): string | undefined {
  let i = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', i);
    if (nl < 0) return undefined;
    i = nl + 1;
  }
  let depth = 0;
  let out = '';
  let started = false;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const nl = source.indexOf('\n', i);
      i = nl < 0 ? source.length : nl;
      continue;
    }
    if (c === '/' && next === '*') {
      const close = source.indexOf('*/', i + 2);
      i = close < 0 ? source.length : close + 2;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < source.length && source[i] !== '"') i += source[i] === '\\' ? 2 : 1;
      i++;
      out += '""';
      continue;
    }
    if (c === "'") {
      const ch = /^'(?:\\.|[^\\'])'/.exec(source.slice(i, i + 12));
      if (ch) {
        i += ch[0].length;
        out += "' '";
        continue;
      }
    }
    if (c === '{') {
      depth++;
      started = true;
    } else if (c === '}') {
      depth--;
      if (started && depth === 0) return out + c;
    }
    if (started) out += c;
    i++;
  }
  return undefined;
}

/** Names of the events a body emits (`emit!(Name { ... })` or `emit_cpi!`). */
function emitsIn(body: string): string[] {
  return [...body.matchAll(/\bemit(?:_cpi)?!\s*[({[]\s*([A-Za-z_]\w*)/g)].map((m) => m[1]!);
}

/**
 * Every instruction that changes state (its accounts struct has a writable
 * account other than a signer) emits at least one event, and every event it
 * emits is a declared #[event] struct: indexers and the owner's heirs can
 * follow every change of the vault from the logs.
 */
function eventCheck(source: string, p: ParsedProgram): Check {
  const problems: string[] = [];
  const structs = new Map(p.accountsStructs.map((s) => [s.name, s]));
  const events = new Set(p.dataStructs.filter((d) => d.attrs.includes('event')).map((d) => d.name));
  let changing = 0;
  for (const mod of p.programModules) {
    for (const ix of mod.instructions) {
      const s = ix.context ? structs.get(ix.context) : undefined;
      const writable = s?.fields.filter((f) => f.wrapper !== 'Signer' && isWritable(f)).map((f) => f.name) ?? [];
      const names = emitsIn(functionBodyCode(source, ix.line) ?? '');
      for (const n of names)
        if (!events.has(n))
          problems.push(`instruction ${ix.name} (line ${ix.line}) emits ${n}, which is not a declared #[event] struct`);
      if (writable.length === 0) continue;
      changing++;
      if (names.length === 0)
        problems.push(`instruction ${ix.name} (line ${ix.line}) changes ${writable.join(', ')} but emits no event`);
    }
  }
  return result(
    'state-changes-emit-events',
    problems,
    `${changing} state-changing instructions, each emitting a declared event`,
  );
}

/**
 * Proof of life: where the vault has a clock or guardians (`last_check_in`, `release_approvals`), every instruction the owner signs
 * that changes the vault, and every deposit (its signer may be the owner), calls `prove_life`, so the owner's actions
 * move the deadline and cancel the guardians' pending early release. Instructions that create or close the vault, or
 * release it, are exempt: no deadline runs before or after them.
 */
function proofOfLifeCheck(source: string, p: ParsedProgram): Check {
  const name = 'owner-actions-prove-life';
  if (!/\b(last_check_in|release_approvals)\b/.test(source))
    return { name, passed: true, detail: 'no deadline and no guardians: nothing to move' };
  const problems: string[] = [];
  const structs = new Map(p.accountsStructs.map((s) => [s.name, s]));
  let owned = 0;
  for (const mod of p.programModules) {
    for (const ix of mod.instructions) {
      const s = ix.context ? structs.get(ix.context) : undefined;
      if (!s) continue;
      const vault = s.fields.find((f) => f.wrapper === 'Account' && f.inner === 'Vault');
      const ownerSigns = s.fields.some((f) => f.wrapper === 'Signer' && (f.name === 'owner' || f.name === 'depositor'));
      if (!vault || !ownerSigns) continue;
      if (has(vault, 'init') || has(vault, 'close')) continue;
      const body = functionBodyCode(source, ix.line) ?? '';
      if (/VaultStatus::Released\s*;/.test(body)) continue;
      owned++;
      if (!isWritable(vault))
        problems.push(
          `instruction ${ix.name} (line ${ix.line}) may be signed by the owner but cannot write the vault, so it cannot move the deadline`,
        );
      else if (!/\.prove_life\s*\(/.test(body))
        problems.push(
          `instruction ${ix.name} (line ${ix.line}) may be signed by the owner but does not call prove_life`,
        );
    }
  }
  return result(name, problems, `${owned} instructions the owner may sign, each proof of life`);
}

function idlChecks(p: ParsedProgram, idl: Record<string, unknown>): Check[] {
  const ixs = (Array.isArray(idl.instructions) ? idl.instructions : []) as Array<Record<string, unknown>>;
  const instructions = p.programModules.flatMap((m) => m.instructions);
  const structs = new Map(p.accountsStructs.map((s) => [s.name, s]));
  const ixProblems: string[] = [];
  const seedProblems: string[] = [];
  const srcNames = instructions.map((i) => i.name);
  const idlNames = ixs.map((i) => String(i.name));
  for (const n of srcNames) if (!idlNames.includes(n)) ixProblems.push(`instruction ${n} is missing from the IDL`);
  for (const n of idlNames) if (!srcNames.includes(n)) ixProblems.push(`IDL instruction ${n} is not in the program`);
  let pdas = 0;
  for (const ix of instructions) {
    const entry = ixs.find((i) => i.name === ix.name);
    const s = ix.context ? structs.get(ix.context) : undefined;
    if (!entry || !s) continue;
    if (canon(entry.discriminator) !== canon(discriminator('global', ix.name)))
      ixProblems.push(`${ix.name}: wrong discriminator`);
    const args = ix.args.map((a) => ({ name: a.name, type: idlTypeOfText(a.typeText) }));
    if (canon(entry.args) !== canon(args))
      ixProblems.push(`${ix.name}: arguments differ (source ${canon(args)}, IDL ${canon(entry.args)})`);
    const argNames = new Set(ix.args.map((a) => a.name));
    const src = s.fields.map((f) => {
      const item = sourceIdlAccount(f, s.fields, argNames);
      const relations = s.fields
        .filter((o) => o.constraints.some((c) => c.key === 'has_one' && c.value?.split('@')[0]?.trim() === f.name))
        .map((o) => o.name);
      if (relations.length > 0) item.relations = relations;
      return item;
    });
    const idlAccounts = (Array.isArray(entry.accounts) ? entry.accounts : []) as Array<Record<string, unknown>>;
    const strip = (a: Record<string, unknown>) => ({
      name: a.name,
      writable: a.writable === true,
      signer: a.signer === true,
      address: a.address,
      relations: Array.isArray(a.relations) ? a.relations : [],
    });
    const a1 = src.map((a) => canon(strip(a as unknown as Record<string, unknown>)));
    const a2 = idlAccounts.map((a) => canon(strip(a)));
    if (a1.join('|') !== a2.join('|')) {
      const i = a1.findIndex((x, k) => x !== a2[k]);
      ixProblems.push(
        `${ix.name}: accounts differ at #${i < 0 ? a1.length : i} (source ${a1[i] ?? 'none'}, IDL ${a2[i] ?? 'none'})`,
      );
    }
    for (const a of src) {
      const other = idlAccounts.find((x) => x.name === a.name);
      const mine = a.pda ? canon(a.pda) : undefined;
      const theirs = other?.pda ? canon(other.pda) : undefined;
      if (mine) pdas++;
      if (mine !== theirs)
        seedProblems.push(`${ix.name}.${a.name}: PDA seeds differ (source ${mine ?? 'none'}, IDL ${theirs ?? 'none'})`);
    }
  }

  const typeProblems: string[] = [];
  const idlAccountsList = (Array.isArray(idl.accounts) ? idl.accounts : []) as Array<Record<string, unknown>>;
  const idlTypes = (Array.isArray(idl.types) ? idl.types : []) as Array<{
    name?: string;
    type?: { kind?: string; fields?: unknown[]; variants?: unknown[] };
  }>;
  for (const d of p.dataStructs) {
    const isState = d.attrs.includes('account');
    const isEvent = d.attrs.includes('event');
    if (isState) {
      const acc = idlAccountsList.find((a) => a.name === d.name);
      if (!acc) typeProblems.push(`account ${d.name} is missing from the IDL accounts`);
      else if (canon(acc.discriminator) !== canon(discriminator('account', d.name)))
        typeProblems.push(`account ${d.name}: wrong discriminator`);
    }
    const derives = d.attrs.some((a) => a.startsWith('derive(') && a.includes('AnchorSerialize'));
    if (!isState && !isEvent && !derives) continue;
    const t = idlTypes.find((x) => x.name === d.name);
    const fields = d.fields.map((f) => ({ name: f.name, type: idlTypeOfText(f.typeText) }));
    if (!t) typeProblems.push(`type ${d.name} is missing from the IDL types`);
    else if (canon(t.type?.fields) !== canon(fields))
      typeProblems.push(`type ${d.name}: fields differ from the source`);
  }
  for (const e of p.enums) {
    if (!e.attrs.includes('derive')) continue;
    const t = idlTypes.find((x) => x.name === e.name);
    if (!t) typeProblems.push(`enum ${e.name} is missing from the IDL types`);
    else if (canon(t.type?.variants) !== canon(e.variants.map((name) => ({ name }))))
      typeProblems.push(`enum ${e.name}: variants differ`);
  }
  const eventProblems: string[] = [];
  const idlEvents = (Array.isArray(idl.events) ? idl.events : []) as Array<Record<string, unknown>>;
  const srcEvents = p.dataStructs.filter((d) => d.attrs.includes('event')).map((d) => d.name);
  for (const n of srcEvents) {
    const e = idlEvents.find((x) => x.name === n);
    if (!e) eventProblems.push(`event ${n} is missing from the IDL events`);
    else if (canon(e.discriminator) !== canon(discriminator('event', n)))
      eventProblems.push(`event ${n}: wrong discriminator`);
  }
  for (const e of idlEvents)
    if (!srcEvents.includes(String(e.name)))
      eventProblems.push(`IDL event ${String(e.name)} is not an #[event] struct of the program`);
  const address = typeof idl.address === 'string' ? idl.address : undefined;
  if (address !== undefined && p.declareIds.length === 1 && p.declareIds[0] !== address)
    typeProblems.push(`IDL address ${address} differs from declare_id!`);

  return [
    result(
      'idl-instructions',
      ixProblems,
      `${instructions.length} instructions match the IDL (names, discriminators, arguments, accounts, flags)`,
    ),
    result('idl-pda-seeds', seedProblems, `${pdas} PDA accounts with the same seeds in source and IDL`),
    result('idl-types', typeProblems),
    result(
      'idl-events',
      eventProblems,
      `${srcEvents.length} events in the IDL events and types, with their discriminators`,
    ),
  ];
}

/** Checks an Anchor program (and its IDL when given). Never throws on bad input; every problem is a failed check. */
export async function checkAnchorProgram(source: string, idl?: Record<string, unknown>): Promise<Check[]> {
  if (typeof source !== 'string') return [{ name: 'rust-syntax', passed: false, detail: 'no source given' }];
  let parsed: ParsedProgram;
  try {
    parsed = await parseAnchorProgram(source);
  } catch (err) {
    return [
      {
        name: 'rust-syntax',
        passed: false,
        detail: `the Rust parser failed: ${err instanceof Error ? err.message : String(err)}`,
      },
    ];
  }
  const { checks, usable } = programChecks(parsed);
  checks.push(eventCheck(source, parsed));
  checks.push(proofOfLifeCheck(source, parsed));
  if (idl) {
    if (usable) checks.push(...idlChecks(parsed, idl));
    else
      checks.push({
        name: 'idl-instructions',
        passed: false,
        detail: 'the program module could not be read, so the IDL cannot be compared',
      });
  }
  return checks;
}

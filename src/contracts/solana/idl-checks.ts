/** Checks that an Anchor IDL matches the program source it claims to describe (see ./checks.ts). */
import { result, isWritable, value, type Check } from './check-result.js';
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
import { splitTopLevel, type ParsedField, type ParsedProgram } from './parser.js';

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

/** Compares the program with its IDL: instructions, PDA seeds, types and events. */
export function idlChecks(p: ParsedProgram, idl: Record<string, unknown>): Check[] {
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

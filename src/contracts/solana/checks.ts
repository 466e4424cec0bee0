/**
 * Checks of an Anchor program that need no Solana toolchain: a tree-sitter
 * parse without error nodes, and structural rules (every instruction has its
 * accounts struct, every account has a checked type, every mutable account is
 * constrained, every signer is bound, program state is reached through PDA
 * seeds, every state-changing instruction emits an event) and, given an IDL,
 * that the IDL matches the source, events included (./idl-checks.ts).
 */
import bs58 from 'bs58';
import { has, isWritable, result, type Check } from './check-result.js';
import { idlChecks } from './idl-checks.js';
import { parseAnchorProgram, type ParsedProgram } from './parser.js';

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
const BINDING_KEYS = ['seeds', 'has_one', 'address', 'constraint', 'associated_token::authority', 'token::authority'];

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

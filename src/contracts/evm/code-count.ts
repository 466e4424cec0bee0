/**
 * Reading, from Solidity source text, how many beneficiaries a contract is deployed with, when the code itself says
 * so: a deploy script or factory in the same file that calls the contract's constructor (`new Estate(owner, heirs,
 * ...)`), with the beneficiary list given as an array literal or as a local array created with a stated length. The
 * generated contracts take their list as a dynamic constructor argument, so the contract alone does not fix the
 * count; the code that deploys it does.
 */

/** The source with comments replaced by spaces (string literals kept), so that commented-out code is not read. */
export function stripComments(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** How far past its opening parenthesis a call's arguments are looked for, so that reading stays linear in the code. */
const MAX_CALL_CHARS = 20_000;
/** How many constructor calls, from the last, are tried. */
const MAX_CALLS_TRIED = 32;

/** The arguments of a call whose opening parenthesis is at `open`, split at top-level commas; undefined if unclosed. */
function callArgs(code: string, open: number): string[] | undefined {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  const end = Math.min(code.length, open + MAX_CALL_CHARS);
  for (let i = open; i < end; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      i = j;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        const last = code.slice(start, i).trim();
        if (last !== '' || args.length > 0) args.push(last);
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(code.slice(start, i).trim());
      start = i + 1;
    }
  }
  return undefined;
}

export interface ConstructorCall {
  /** The contract the code deploys. */
  contract: string;
  /** Argument expressions, as written. */
  args: string[];
}

/**
 * The last `new C(...)` in the code whose C is a contract defined in the same code (a deploy script or factory
 * deploying it), or undefined.
 */
export function constructorCallIn(source: string): ConstructorCall | undefined {
  const code = stripComments(source);
  const defined = new Set([...code.matchAll(/\bcontract\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!));
  const calls = [...code.matchAll(/\bnew\s+([A-Za-z_$][\w$]*)\s*(?:\{[^{}();]{0,200}\}\s*)?\(/g)].filter((m) =>
    defined.has(m[1]!),
  );
  for (const m of calls.slice(-MAX_CALLS_TRIED).reverse()) {
    const args = callArgs(code, m.index + m[0].length - 1);
    if (args) return { contract: m[1]!, args };
  }
  return undefined;
}

const escapeDollar = (s: string) => s.replace(/[$]/g, '\\$');

/**
 * The length of the address array an argument expression gives: an array literal `[a, b, c]`, or a local declared
 * as `address[N] memory x` or created as `x = new address[](N)` (the last such creation in the code). Undefined when
 * the code does not say.
 */
export function addressArrayLength(source: string, expression: string): number | undefined {
  const code = stripComments(source);
  const expr = expression.trim();
  if (expr.startsWith('[')) {
    const items = callArgs(expr.replace(/^\[/, '(').replace(/\]$/, ')'), 0);
    return items?.filter((x) => x !== '').length;
  }
  if (!/^[A-Za-z_$][\w$]*$/.test(expr)) return undefined;
  const id = escapeDollar(expr);
  const created = [
    ...code.matchAll(
      new RegExp(`\\b${id}\\s*=\\s*new\\s+address(?:\\s+payable)?\\s*\\[\\s*\\]\\s*\\(\\s*(\\d+)\\s*\\)`, 'g'),
    ),
  ];
  if (created.length > 0) return Number(created[created.length - 1]![1]);
  const fixed = new RegExp(`\\baddress(?:\\s+payable)?\\s*\\[\\s*(\\d+)\\s*\\]\\s+memory\\s+${id}\\b`).exec(code);
  if (fixed) return Number(fixed[1]);
  return undefined;
}

/**
 * The NatSpec tag a generated contract carries above its `contract` line with the beneficiary count of the plan it
 * was generated for. The contract takes its list as a constructor argument, so the code alone does not fix the
 * count; the tag says what the plan had, so that the bare source pasted into estimate_gas is measured for that plan.
 * With `bytecodeHash: 'none'` (see pool.ts) a comment does not change the bytecode.
 */
export const PLAN_COUNT_TAG = '@custom:svc-beneficiaries';

/** The source with the plan's beneficiary count tagged on the NatSpec of contract `name` (unchanged if absent). */
export function tagBeneficiaryCount(source: string, name: string, count: number): string {
  const at = source.search(new RegExp(`^contract\\s+${escapeDollar(name)}\\b`, 'm'));
  if (at < 0) return source;
  return `${source.slice(0, at)}/// ${PLAN_COUNT_TAG} ${count}\n${source.slice(at)}`;
}

/** How far into the code the tag is looked for: it sits above the contract, near the top. */
const MAX_TAG_CHARS = 20_000;
const TAG_LINE = /^[ \t]*\/\/\/[ \t]*@custom:svc-beneficiaries[ \t]+(\d{1,4})[ \t]*$/gm;

/**
 * The beneficiary count the code's `@custom:svc-beneficiaries N` tags state, when they all state the same count
 * from 1 to `max`; undefined otherwise (no tag, tags that disagree, or a count out of range).
 */
export function taggedBeneficiaryCount(source: string, max: number): number | undefined {
  const counts = new Set([...source.slice(0, MAX_TAG_CHARS).matchAll(TAG_LINE)].map((m) => Number(m[1])));
  if (counts.size !== 1) return undefined;
  const [n] = [...counts];
  return n !== undefined && n >= 1 && n <= max ? n : undefined;
}

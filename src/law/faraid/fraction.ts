/**
 * Exact non-negative-or-negative rationals on BigInt, always kept in lowest
 * terms with a positive denominator. Fara'id arithmetic never touches floating
 * point: every share is one of these until it is rounded, once, at the end.
 *
 * A library (fraction.js) would do, but it works on JavaScript numbers by
 * default and the operations needed here are few; a 60-line type is easier to
 * audit than a dependency.
 */

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) {
    const t = a % b;
    a = b;
    b = t;
  }
  return a;
}

export function lcm(a: bigint, b: bigint): bigint {
  if (a === 0n || b === 0n) return 0n;
  const r = (a / gcd(a, b)) * b;
  return r < 0n ? -r : r;
}

export class Fraction {
  readonly num: bigint;
  readonly den: bigint;

  private constructor(num: bigint, den: bigint) {
    this.num = num;
    this.den = den;
  }

  static of(num: bigint | number, den: bigint | number = 1n): Fraction {
    let n = BigInt(num);
    let d = BigInt(den);
    if (d === 0n) throw new RangeError('Fraction with zero denominator');
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = gcd(n, d);
    return g > 1n ? new Fraction(n / g, d / g) : new Fraction(n, d);
  }

  static readonly ZERO = Fraction.of(0n);
  static readonly ONE = Fraction.of(1n);

  /** Parses "n/d" or "n". */
  static parse(text: string): Fraction {
    const m = /^(-?\d+)(?:\/(\d+))?$/.exec(text.trim());
    if (!m) throw new RangeError(`Not a fraction: ${text}`);
    return Fraction.of(BigInt(m[1]!), BigInt(m[2] ?? '1'));
  }

  add(o: Fraction): Fraction {
    return Fraction.of(this.num * o.den + o.num * this.den, this.den * o.den);
  }
  sub(o: Fraction): Fraction {
    return Fraction.of(this.num * o.den - o.num * this.den, this.den * o.den);
  }
  mul(o: Fraction | bigint | number): Fraction {
    const f = o instanceof Fraction ? o : Fraction.of(o);
    return Fraction.of(this.num * f.num, this.den * f.den);
  }
  div(o: Fraction | bigint | number): Fraction {
    const f = o instanceof Fraction ? o : Fraction.of(o);
    if (f.num === 0n) throw new RangeError('Division by zero');
    return Fraction.of(this.num * f.den, this.den * f.num);
  }
  cmp(o: Fraction): -1 | 0 | 1 {
    const l = this.num * o.den;
    const r = o.num * this.den;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  eq(o: Fraction): boolean {
    return this.num === o.num && this.den === o.den;
  }
  lt(o: Fraction): boolean {
    return this.cmp(o) < 0;
  }
  gt(o: Fraction): boolean {
    return this.cmp(o) > 0;
  }
  isZero(): boolean {
    return this.num === 0n;
  }
  static max(...xs: Fraction[]): Fraction {
    return xs.reduce((a, b) => (b.gt(a) ? b : a));
  }
  static min(...xs: Fraction[]): Fraction {
    return xs.reduce((a, b) => (b.lt(a) ? b : a));
  }
  static sum(xs: Iterable<Fraction>): Fraction {
    let s = Fraction.ZERO;
    for (const x of xs) s = s.add(x);
    return s;
  }
  /** Always "n/d" in lowest terms: "1/8", "0/1", "1/1". */
  toString(): string {
    return `${this.num}/${this.den}`;
  }
}

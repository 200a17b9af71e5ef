// Exact decimal arithmetic for window amounts (docs/verdicts.md "Budgets, rates and sequences"). A JSON
// number is read as the decimal its shortest round-trip form writes (`String(0.1)` is "0.1"), which is
// what PostgreSQL's `numeric` holds when the gateway's store is given that text. Sums and comparisons are
// then exact, so `used + amount > max` gives the same answer in the engine, the in-memory ledger and the
// store (0.1 + 0.2 fits a max of 0.3 everywhere), and a running total that adds and subtracts the same
// amounts comes back to exactly where it was. Pure.

/** `digits / 10^scale`, scale >= 0. */
export interface Decimal {
  readonly digits: bigint;
  readonly scale: number;
}

export const ZERO: Decimal = Object.freeze({ digits: 0n, scale: 0 });

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/** The decimal a finite number's shortest round-trip text writes. Throws on NaN and infinities. */
export function decimalOf(n: number): Decimal {
  const m = NUMBER.exec(String(n));
  if (!m) throw new RangeError(`not a finite number: ${String(n)}`);
  const [, sign, whole, fraction = '', exponent = '0'] = m;
  let scale = fraction.length - Number(exponent);
  let digits = BigInt(whole + fraction);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits: sign ? -digits : digits, scale };
}

function aligned(a: Decimal, b: Decimal): [bigint, bigint, number] {
  if (a.scale === b.scale) return [a.digits, b.digits, a.scale];
  if (a.scale > b.scale) return [a.digits, b.digits * 10n ** BigInt(a.scale - b.scale), a.scale];
  return [a.digits * 10n ** BigInt(b.scale - a.scale), b.digits, b.scale];
}

export function plus(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return { digits: x + y, scale };
}

export function minus(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = aligned(a, b);
  return { digits: x - y, scale };
}

/** Negative, zero or positive as a is below, equal to or above b. */
export function compare(a: Decimal, b: Decimal): number {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The nearest number (what PostgreSQL's numeric gives a client as text, read with Number()). */
export function toNumber(d: Decimal): number {
  if (d.scale === 0) return Number(d.digits);
  const negative = d.digits < 0n;
  const text = (negative ? -d.digits : d.digits).toString().padStart(d.scale + 1, '0');
  const point = text.length - d.scale;
  return Number(`${negative ? '-' : ''}${text.slice(0, point)}.${text.slice(point)}`);
}

/**
 * Whether adding `amount` to a window holding `used` takes it past `max` (the rule then fires), in exact
 * decimal arithmetic: the one comparison of the engine, the ledger and the store.
 */
export function exceeds(used: number | Decimal, amount: number | Decimal, max: number | Decimal): boolean {
  const d = (v: number | Decimal): Decimal => (typeof v === 'number' ? decimalOf(v) : v);
  return compare(plus(d(used), d(amount)), d(max)) > 0;
}

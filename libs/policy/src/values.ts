// Value helpers shared by conditions and requirements: JSON equality and ISO 8601 dates.

/** Structural equality of JSON values (numbers by value, objects by keys regardless of order). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

export function isScalar(v: unknown): v is string | number | boolean {
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean';
}

export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 section 5.6 date-time (the profile of ISO 8601 used on the wire); a space may replace T.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return d <= days;
}

/** A calendar date `YYYY-MM-DD` (ISO 8601 extended format). */
export function isIsoDate(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DATE.exec(v);
  return m !== null && validDay(+m[1], +m[2], +m[3]);
}

/**
 * An RFC 3339 timestamp with an offset (`2026-03-01T12:00:00Z`) that names one instant: every value it accepts,
 * isoToMillis compares. A leap second (`23:59:60`) is refused, as the services' own reading of instants refuses it
 * (libs/input): no clock this product reads has one, and a requirement that took it would hand the comparison a
 * value it cannot place, which a rule's condition reads as false (a block lifted).
 */
export function isIsoDateTime(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const m = DATE_TIME.exec(v);
  if (m === null || !validDay(+m[1], +m[2], +m[3])) return false;
  if (+m[4] > 23 || +m[5] > 59 || +m[6] > 59) return false;
  return m[9] === undefined || (+m[9] <= 23 && +m[10] <= 59);
}

/** Milliseconds since the epoch of an ISO date (midnight UTC) or RFC 3339 timestamp; NaN otherwise. */
export function isoToMillis(v: unknown): number {
  if (isIsoDate(v)) return Date.parse(`${v}T00:00:00Z`);
  if (isIsoDateTime(v)) return Date.parse(v.toUpperCase().replace(' ', 'T'));
  return Number.NaN;
}

// A tool's arguments as resolve Facts: every dot path of the (nested) arguments, objects and leaves
// alike, so a rule reading `transfer.amount` and one reading `transfer` both find their field, as they
// would read check's parameters (docs/verdicts.md "Fields"). Arrays are values, not paths.
import type { Context } from '../types';

/** Paths deeper than this are sent as their enclosing object only. */
const MAX_DEPTH = 8;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function argumentFacts(args: Record<string, unknown>, source: string): Context {
  const out: Context = {};
  const walk = (value: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      out[path] = { value: v, source };
      if (isPlainObject(v) && depth < MAX_DEPTH) walk(v, path, depth + 1);
    }
  };
  walk(args, '', 1);
  return out;
}

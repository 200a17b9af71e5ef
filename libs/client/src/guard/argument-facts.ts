// A tool's arguments as resolve Facts: every dot path of the (nested) arguments, objects and leaves
// alike, so a rule reading `transfer.amount` and one reading `transfer` both find their field, as they
// would read check's parameters (docs/verdicts.md "Fields"). Arrays are values, not paths.
//
// A key that holds a dot (`"transfer.amount": 5`) is no path check could read: check descends the
// parameters one key at a time, so it reads `transfer` → `amount`, never that key. Made a Fact, it
// would stand at the same path as the nested value and could hide it (the rules would judge 5 while
// the tool runs with the nested amount), so such keys, and the empty key, give no Fact of their own
// (docs/agents.md "The proxy's configuration"). Each path then comes from one value only.
//
// An argument named `parameters` gives no Fact at all (the gateway refuses Facts of that name or under it), and
// an argument named `scope` gives no Facts under it: check reads `scope.<field>` from the request's scope,
// never from its parameters, and resolve would take a `scope.<field>` Fact as widening the scope.
import { isPlainObject } from '@arbiter/input';
import type { Context } from '../types';

/** Paths deeper than this are sent as their enclosing object only. */
const MAX_DEPTH = 8;

export function argumentFacts(args: Record<string, unknown>, source: string): Context {
  const out: [string, Context[string]][] = [];
  const walk = (value: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined || key === '' || key.includes('.')) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      // The gateway refuses a Fact named parameters or parameters.<field> (it could stand in for a parameter).
      if (path === 'parameters') continue;
      out.push([path, { value: v, source }]);
      if (isPlainObject(v) && depth < MAX_DEPTH && path !== 'scope') walk(v, path, depth + 1);
    }
  };
  walk(args, '', 1);
  // fromEntries defines each path as an own member, `__proto__` included.
  return Object.fromEntries(out);
}

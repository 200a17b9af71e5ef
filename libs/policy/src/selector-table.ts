// Scope selectors of every rule, flattened into typed arrays by rule ordinal. Candidate selection tests
// the selector of every rule the action index returns (hundreds on a large rule set); comparing small
// integers in contiguous arrays avoids touching each rule object and each value string. A request's
// scope is encoded once per evaluation: each selector field's value becomes the id the compiler gave it.
import type { Scope, ScopeValue } from './types';

const hasOwn = Object.prototype.hasOwnProperty;

/** A scope value no selector names: it can match nothing (0 means the field is absent). */
const UNNAMED = -1;

export interface SelectorSource {
  readonly selectorKeys: readonly string[];
  readonly selectorValues: readonly ScopeValue[];
}

export class SelectorTable {
  /** The scope fields any selector names. */
  private readonly keys: string[] = [];
  /** Per scope field: value → id (1, 2, ...). A Map keeps 1 and "1" apart. */
  private readonly valueIds: Map<ScopeValue, number>[] = [];
  private readonly start: Int32Array;
  private readonly field: Int32Array;
  private readonly value: Int32Array;

  /** `rules[i]` is the rule of ordinal i. */
  constructor(rules: readonly SelectorSource[]) {
    this.start = new Int32Array(rules.length + 1);
    const fields: number[] = [];
    const values: number[] = [];
    rules.forEach((rule, i) => {
      this.start[i] = fields.length;
      rule.selectorKeys.forEach((key, k) => {
        let f = this.keys.indexOf(key);
        if (f < 0) {
          f = this.keys.push(key) - 1;
          this.valueIds.push(new Map());
        }
        const ids = this.valueIds[f];
        const v = rule.selectorValues[k];
        let id = ids.get(v);
        if (id === undefined) ids.set(v, (id = ids.size + 1));
        fields.push(f);
        values.push(id);
      });
    });
    this.start[rules.length] = fields.length;
    this.field = Int32Array.from(fields);
    this.value = Int32Array.from(values);
  }

  /** The request scope as value ids by selector field. */
  encode(scope: Scope): Int32Array {
    const out = new Int32Array(this.keys.length);
    for (let f = 0; f < this.keys.length; f++) {
      const key = this.keys[f];
      if (!hasOwn.call(scope, key) || scope[key] === undefined) continue;
      out[f] = this.valueIds[f].get(scope[key]) ?? UNNAMED;
    }
    return out;
  }

  /**
   * -1 when the rule's selector does not match; else 0 exact (it names every scope field), 1 partial,
   * 2 tenant (empty selector). `scopeSize` counts the request's defined scope fields.
   */
  match(ordinal: number, encoded: Int32Array, scopeSize: number): number {
    const from = this.start[ordinal];
    const to = this.start[ordinal + 1];
    if (from === to) return 2;
    for (let i = from; i < to; i++) if (encoded[this.field[i]] !== this.value[i]) return -1;
    return to - from === scopeSize ? 0 : 1;
  }
}

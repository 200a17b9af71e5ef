// Candidate index by action (the hot path of a check on a large rule set). Each action glob of a rule
// is filed under its literal prefix: globs without wildcards in a hash map, the others in a character
// trie, so a lookup walks the action's characters once and tests only globs whose prefix it carries.
// Rules without action globs (or with a glob that starts with a wildcard) sit at the trie root.
import type { BudgetMeter } from './budget';
import { collapseStars, compileGlob, hasWildcard, literalPrefix, type StringMatcher } from './glob';

interface Entry {
  rule: number;
  matches: StringMatcher;
}

interface TrieNode {
  children: Map<string, TrieNode> | null;
  entries: Entry[];
}

const newNode = (): TrieNode => ({ children: null, entries: [] });

export class ActionIndex {
  private readonly exact = new Map<string, number[]>();
  private readonly root: TrieNode = newNode();
  /** Rules filed more than once (several action globs): lookups de-duplicate only these. */
  private readonly multi = new Set<number>();

  /** Files rule number `rule` under its action globs (absent or empty = every action). */
  add(rule: number, globs: readonly string[] | null | undefined): void {
    if (!globs || globs.length === 0) {
      this.root.entries.push({ rule, matches: () => true });
      return;
    }
    const unique = [...new Set(globs.map(collapseStars))];
    if (unique.includes('*')) {
      this.root.entries.push({ rule, matches: () => true });
      return;
    }
    if (unique.length > 1) this.multi.add(rule);
    for (const glob of unique) {
      if (!hasWildcard(glob)) {
        const list = this.exact.get(glob);
        if (list) list.push(rule);
        else this.exact.set(glob, [rule]);
        continue;
      }
      let node = this.root;
      // UTF-16 code units, as lookup() walks them.
      const prefix = literalPrefix(glob);
      for (let i = 0; i < prefix.length; i++) {
        const ch = prefix[i];
        node.children ??= new Map();
        let next = node.children.get(ch);
        if (!next) node.children.set(ch, (next = newNode()));
        node = next;
      }
      node.entries.push({ rule, matches: compileGlob(glob) });
    }
  }

  /**
   * Numbers of the rules with an action glob matching `action`, each once, in no particular order. Each
   * glob tested spends one unit of `meter` (many rules whose globs start with a wildcard sit at the root).
   */
  lookup(action: string, meter: BudgetMeter | null = null): number[] {
    const out: number[] = [];
    const multi = this.multi;
    let seen: Set<number> | null = null;
    const exact = this.exact.get(action);
    if (exact) {
      for (const rule of exact) {
        if (multi.has(rule)) (seen ??= new Set()).add(rule);
        out.push(rule);
      }
    }
    let node: TrieNode | undefined = this.root;
    let i = 0;
    while (node) {
      for (const e of node.entries) {
        if (meter !== null) meter.spend(1);
        if (!e.matches(action)) continue;
        if (multi.size > 0 && multi.has(e.rule)) {
          seen ??= new Set();
          if (seen.has(e.rule)) continue;
          seen.add(e.rule);
        }
        out.push(e.rule);
      }
      if (!node.children || i >= action.length) break;
      node = node.children.get(action[i++]);
    }
    return out;
  }
}

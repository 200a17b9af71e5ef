import type { ScopeSelector } from './common';
import type { Invariant } from './entries';
import type { Override } from './overrides';
import type { Rule } from './rules';

/**
 * The normative state of a scope. `normative_hash` is `sha256:` + hex SHA-256 of the RFC 8785
 * canonical JSON of this object without `normative_hash` (docs/registry.md).
 */
export interface ResolvedScope {
  scope_id: string;
  selector: ScopeSelector;
  /** Active invariants, sorted by id. */
  invariants: Invariant[];
  /** Active rules with their current version, sorted by id. */
  rules: Rule[];
  /** Overrides in effect now (not revoked, not expired), sorted by id. */
  overrides: Override[];
  normative_hash: string;
}

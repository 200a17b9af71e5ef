/** Shapes shared by the registry resources (docs/registry.md "Contract"). */

/** Who wrote an entry (docs/registry.md "Entries"): `human` or `agent`; `system` is for automation. */
export type AuthorType = 'human' | 'agent' | 'system';

/** The three entry kinds (docs/registry.md "Entries"; search `entry_type`, compliance conflicts, references, links). */
export type EntryType = 'decision' | 'invariant' | 'rule';

/** A scope value: the scope fields of docs/verdicts.md are flat strings, numbers or booleans. */
export type ScopeValue = string | number | boolean;

/**
 * Object of scope fields (docs/verdicts.md), e.g. `{"region": "eu", "team": "payments"}`.
 * Checked against the tenant's `settings.scope_schema` when it names fields.
 */
export interface ScopeSelector {
  [field: string]: ScopeValue;
}

/** Author fields of every entry; both default to the calling principal (its id and kind). */
export interface AuthorFields {
  /** @minLength 1 @maxLength 200 */
  author?: string;
  author_type?: AuthorType;
}

/** Server-assigned fields present on every stored resource. */
export interface ServerFields {
  tenant_id: string;
  /** 1 for entries that never change; the version number for rules; incremented on scope updates. */
  version: number;
  /** ISO 8601 */
  created_at: string;
  /** ISO 8601 */
  updated_at: string;
  /** Principal id of the caller that created it (null when made by a service). */
  created_by: string | null;
}

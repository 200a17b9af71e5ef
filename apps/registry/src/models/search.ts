import type { EntryType, ScopeSelector } from './common';
import type { Decision, Invariant } from './entries';
import type { Rule, Severity } from './rules';

export interface SearchBody {
  /**
   * Free text in web-search syntax: words, "quoted phrases", `or`, `-excluded`; words are stemmed
   * (english), so "approving" finds "approval".
   * @minLength 1 @maxLength 1000
   */
  query: string;
  /** Restricts to one scope; without it, every scope the key may read. */
  scope_id?: string;
  entry_type?: EntryType;
  /** Also search revoked invariants and archived rules (default false). */
  include_inactive?: boolean;
  /**
   * Default 50, at most 1000.
   * @isInt @minimum 1 @maximum 1000
   */
  limit?: number;
}

export interface SearchHit {
  entry_id: string;
  entry_type: EntryType;
  scope_id: string;
  status: string;
  /** ts_rank_cd with weights: the entry's main text (decision, constraint, directive) weighs most. */
  rank: number;
  /** Where it matched: matched words between « and », fragments joined by " … ". */
  snippet: string;
  entry: Decision | Invariant | Rule;
}

export interface SearchResult {
  items: SearchHit[];
}

export interface CheckBody {
  scope_id: string;
  /** What is about to be done, in words. @minLength 1 @maxLength 5000 */
  intended_action: string;
  /** Optional machine action name, matched against rules' `applies_to.actions` globs. @maxLength 500 */
  action?: string;
  /** Optional resource name, matched against rules' `applies_to.resources` globs. @maxLength 500 */
  resource?: string;
  /** Optional further scope fields of the operation; with the scope's selector (which wins) they match overrides' `applies_to_scope`. */
  scope?: ScopeSelector;
}

export interface Conflict {
  entry_id: string;
  entry_type: 'invariant' | 'rule';
  /** A rule's severity; `MANDATORY` for an invariant. */
  severity: Severity;
  /** An invariant's requires_approval; for a rule, severity REQUIRES_APPROVAL. */
  requires_approval: boolean;
  /** The invariant's constraint or the rule's directive. */
  text: string;
  /** For rules: the current version cited. */
  rule_version_id: string | null;
  /** `text`: shares words with the intended action; `applies_to`: the rule's globs match. */
  matched_by: 'text' | 'applies_to';
  /** Stemmed words shared with the intended action (empty when matched by applies_to). */
  matched_terms: string[];
}

export interface OverriddenConflict extends Conflict {
  /** The override(s) in effect that suspend it. */
  override_ids: string[];
}

export interface CheckResult {
  scope_id: string;
  conflicts: Conflict[];
  overridden: OverriddenConflict[];
}

import type { AppliesTo } from '../models/rules';
import { compileGlobList } from '@arbiter/policy';

/** What the compliance check knows of the intended operation. */
export interface IntendedOperation {
  /** Words of intended_action, as typed. */
  text: string;
  action?: string;
  resource?: string;
  /** The distinct words of `text` (words()), computed once per compliance check rather than per entry. */
  words?: readonly string[];
}

export interface CandidateEntry {
  /** Stemmed words (english text-search lexemes) the entry's text shares with intended_action. */
  sharedTerms: string[];
  /** A rule's applies_to; null for invariants and for rules that apply to everything. */
  appliesTo: AppliesTo | null;
}

export interface Relevance {
  matched_by: 'text' | 'applies_to';
  matched_terms: string[];
}

/**
 * Whether an active invariant or rule is relevant to an intended action (the compliance check,
 * docs/registry.md "Compliance check: how relevance is decided"):
 * 1. An invariant, or a rule without `applies_to`, is relevant when its text shares at least one
 *    significant word with intended_action (english stemming, stop words ignored).
 * 2. A rule with `applies_to`, when the caller names the operation (`action` and/or `resource`):
 *    relevant exactly when the named parts match its globs (an unnamed part is not held against
 *    it); its text is not consulted, since applies_to is the rule's own statement of scope.
 * 3. A rule with `applies_to`, when the caller gives only words: relevant when its text shares a
 *    word (as in 1), or when a word of intended_action matches one of its listed globs.
 */
export function relevance(entry: CandidateEntry, op: IntendedOperation): Relevance | null {
  const byText: Relevance | null = entry.sharedTerms.length ? { matched_by: 'text', matched_terms: [...entry.sharedTerms].sort() } : null;
  const a = entry.appliesTo;
  if (!a) return byText;
  if (op.action !== undefined || op.resource !== undefined) {
    const actionOk = op.action === undefined || matchesAny(a.actions, op.action);
    const resourceOk = op.resource === undefined || matchesAny(a.resources, op.resource);
    return actionOk && resourceOk ? { matched_by: 'applies_to', matched_terms: [] } : null;
  }
  if (byText) return byText;
  const listed = [...(a.actions ?? []), ...(a.resources ?? [])];
  if (listed.length === 0) return null;
  // The globs compiled once per entry (linear-time matchers), each distinct word tested once.
  const matcher = compileGlobList(listed);
  const candidates = op.words ?? distinctWords(op.text);
  const hit = matcher === null ? candidates.length > 0 : candidates.some(matcher);
  return hit ? { matched_by: 'applies_to', matched_terms: [] } : null;
}

/** words(), each once. */
export function distinctWords(text: string): string[] {
  return [...new Set(words(text))];
}

/** Whitespace-separated words without surrounding punctuation ("deploy," -> "deploy"). */
export function words(text: string): string[] {
  return text.split(/\s+/u).map(trimPunctuation).filter(Boolean);
}

const PUNCTUATION = /^[\p{P}\p{S}]$/u;

/**
 * The word without leading and trailing punctuation or symbols, one code point at a time from each end:
 * linear, where `[\p{P}\p{S}]+$` rescans a long inner run of punctuation from every position.
 */
function trimPunctuation(word: string): string {
  const cps = [...word];
  let start = 0;
  let end = cps.length;
  while (start < end && PUNCTUATION.test(cps[start])) start++;
  while (end > start && PUNCTUATION.test(cps[end - 1])) end--;
  return start === 0 && end === cps.length ? word : cps.slice(start, end).join('');
}

/** The rule engine's glob semantics: an absent or empty list matches everything. */
function matchesAny(globs: readonly string[] | undefined, value: string): boolean {
  const matcher = compileGlobList(globs);
  return matcher === null || matcher(value);
}

// Consultations as the console lists and shows them (docs/evidence.md "In the console"): the filter of
// GET /<tenant>/v1/consultations and the record's parts the pages read. Pure: no fetch, no DOM.

import type { ConsultationList, ConsultationRecord, LimitEntry, WithLimits } from '@arbiter/client';
import { sensitiveStates } from '@arbiter/client/browser';

export type { ConsultationRecord };
export type ConsultationPage = ConsultationList;
export type PrecedenceEntry = ConsultationRecord['precedence_trace'][number];

/** The record's `limits` (present only when a rule with a window was consulted), [] otherwise. */
export const limitsOf = (record: WithLimits<ConsultationRecord>): LimitEntry[] => record.limits ?? [];

/** How a trace entry's window stood, in words, or '' when the rule has none. */
export function limitStateText(entry: PrecedenceEntry): string {
  const state = (entry as { limit_state?: string }).limit_state;
  return state ? (LIMIT_STATE_TEXT[state] ?? state) : '';
}

const LIMIT_STATE_TEXT: Record<string, string> = {
  within: 'within its limit',
  exceeded: 'limit exceeded',
  prior_found: 'prior operation found',
  prior_missing: 'no prior operation',
  limit_unavailable: 'window state unavailable (fails closed)',
};

/**
 * The record's sensitive values for the page (docs/verdicts.md "Sensitive fields"): each committed path with its value
 * as the read answered it beside the record (`erased` once the subject's key is gone, `unreadable` on an integrity
 * failure), or `not shown` when the read
 * carried none (a key without `read`).
 */
export function sensitiveRows(record: ConsultationRecord): Array<{ path: string; value: string }> {
  const values = (record as { sensitive_values?: Record<string, unknown> }).sensitive_values;
  return sensitiveStates(record as unknown as Record<string, unknown>).map(({ path, state }) => ({
    path,
    value: state === 'erased' || state === 'unreadable' ? state : state === 'readable' ? jsonText(values![path]) : 'not shown',
  }));
}

/** The window's key in words: `{}` is the rule's one window; otherwise the JSON of its values, as the record has it. */
export const limitKeyText = (key: string) => (key === '{}' ? 'one window for the rule' : key);

/** The filter form's values, as typed (empty = no filter). */
export interface ConsultationFilter {
  action: string;
  verdict: string;
  actor: string;
  /** `datetime-local` values (the browser's local time), or ''. */
  since: string;
  until: string;
}

export const EMPTY_FILTER: ConsultationFilter = { action: '', verdict: '', actor: '', since: '', until: '' };

/** The verdicts the list can be filtered by. */
export const VERDICTS = ['allowed', 'blocked', 'approval_required', 'insufficient_context'];

export const PAGE_SIZE = 25;

/** A `datetime-local` value as an ISO 8601 instant (read in the browser's time zone), or undefined when empty or unreadable. */
export function instantOf(local: string): string | undefined {
  if (!local.trim()) return undefined;
  const ms = Date.parse(local);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The list endpoint's query parameters for a filter and a page cursor (the names GET /<tenant>/v1/consultations takes). */
export function listParams(filter: ConsultationFilter, cursor: string | null): Record<string, string | number | undefined> {
  return {
    action: filter.action.trim() || undefined,
    verdict: filter.verdict || undefined,
    actor: filter.actor.trim() || undefined,
    since: instantOf(filter.since),
    until: instantOf(filter.until),
    limit: PAGE_SIZE,
    cursor: cursor ?? undefined,
  };
}

/** A JSON value as indented text, for a <pre> (rendered as text, never markup). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value ?? null, null, 2) ?? 'null';
}

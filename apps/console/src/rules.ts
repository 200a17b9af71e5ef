// Rules as the console's rules page reads them (docs/evidence.md "In the console"): the registry's rules of a
// scope, their shadow reports, and the draft of an edit the verdict simulation replays. Pure: no fetch, no DOM.

import type { RegistryRuleVersion, Rule, RuleShadowReport, Scope, SimulationResult } from '@arbiter/client';

export type { Rule, Scope, SimulationResult };
export type RuleVersion = RegistryRuleVersion;
export type ShadowReport = RuleShadowReport;
export type SimulationSample = SimulationResult['samples'][number];

/** The members of a rule an update in a simulation takes (the verdict service's SimulatedRuleBody). */
export const SIMULATED_MEMBERS = [
  'directive',
  'severity',
  'verdict',
  'applies_to',
  'conditions',
  'condition_mode',
  'requires',
  'deciders',
  'priority',
  'mode',
  'approvals_required',
  'escalate_after',
  'escalation_deciders',
  'approval_expires_after',
  'limit',
  'requires_prior',
] as const;

/** The fields that remember (docs/verdicts.md "Budgets, rates and sequences"), null when not set. */
export type WindowFields = Partial<Pick<Rule, 'limit' | 'requires_prior'>>;

const pathList = (paths: readonly string[]) =>
  paths.length <= 1 ? (paths[0] ?? '') : `${paths.slice(0, -1).join(', ')} and ${paths[paths.length - 1]}`;

/**
 * A rule's window in words, or null when it has none: `at most 50 per 1h by principal`, `at most 1500 of
 * parameters.amount per 24h by parameters.customer`, `only after payments.review within 1h on the same
 * parameters.order_id`.
 */
export function windowText(rule: WindowFields): string | null {
  const l = rule.limit;
  if (l) {
    const what = l.sum ? `${l.max} of ${l.sum}` : `${l.max}`;
    const by = l.by?.length ? ` by ${pathList(l.by)}` : '';
    return `at most ${what} per ${l.window}${by}`;
  }
  const p = rule.requires_prior;
  if (p) return `only after ${p.action} within ${p.within}${p.same?.length ? ` on the same ${pathList(p.same)}` : ''}`;
  return null;
}

/** A rule's content as the text of the edit box: its simulated members, null ones left out (the simulation takes absent, not null). */
export function draftOf(rule: Rule): string {
  const draft: Record<string, unknown> = {};
  for (const m of SIMULATED_MEMBERS) if (rule[m] !== null && rule[m] !== undefined) draft[m] = rule[m];
  return JSON.stringify(draft, null, 2);
}

/** The simulation request of an edited rule, or the reason the text cannot be one. */
export function simulationRequest(
  ruleId: string,
  text: string,
  days: number,
): { ok: true; body: Record<string, unknown> } | { ok: false; error: string } {
  let rule: unknown;
  try {
    rule = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `The rule is not JSON: ${(err as Error).message}` };
  }
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return { ok: false, error: 'The rule must be a JSON object' };
  if (!Number.isInteger(days) || days < 1 || days > 365) return { ok: false, error: 'The window must be 1 to 365 days' };
  const until = new Date();
  const since = new Date(until.getTime() - days * 86_400_000);
  return {
    ok: true,
    body: {
      changes: [{ op: 'update', rule_id: ruleId, rule }],
      window: { since: since.toISOString(), until: until.toISOString() },
      sample_limit: 50,
    },
  };
}

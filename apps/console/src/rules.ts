// Rules as the console's rules page reads them (docs/evidence.md "In the console"): the registry's rules of a
// scope, their shadow reports, and the draft of an edit the verdict simulation replays. Pure: no fetch, no DOM.

export interface Scope {
  id: string;
  name: string;
  description: string | null;
  selector: Record<string, unknown>;
}

export interface Rule {
  id: string;
  scope_id: string;
  directive: string;
  severity: string;
  verdict: string | null;
  mode: 'enforce' | 'shadow';
  status: string;
  current_version_id: string;
  updated_at: string;
  [member: string]: unknown;
}

export interface RuleVersion {
  id: string;
  rule_id: string;
  status: 'current' | 'superseded';
  directive: string;
  severity: string;
  mode: string;
  created_at: string;
}

export interface ShadowReport {
  rule_id: string;
  mode: string;
  disagreements: number;
  by_version: { rule_version_id: string; disagreements: number; last_at: string }[];
}

export interface SimulationSample {
  consultation_id: string;
  requested_at: string;
  action: string;
  resource: string;
  before: string;
  after: string;
  dominating_rule_before: string | null;
  dominating_rule_after: string | null;
}

export interface SimulationResult {
  evaluated: number;
  changed: number;
  transitions: Record<string, number>;
  samples: SimulationSample[];
  window: { since: string; until: string; last: number | null };
  evaluated_at: string;
}

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
] as const;

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

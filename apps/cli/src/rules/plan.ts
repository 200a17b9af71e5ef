// What `arbiter rules plan` shows and `apply` does (docs/rules-as-code.md "Matching"): the file is the
// scope's whole rule set. A file rule with an id is that rule; one without is the active rule with
// the same directive; rules of the scope that nothing in the file matches are archived. Both sides are
// normalised with the registry's defaults, so a rule whose content a PUT would not change is unchanged.
import { canonicalJson } from '@arbiter/canonical';
import {
  changedFields,
  normaliseContent,
  ruleBody,
  type ContentField,
  type FileRule,
  type RuleContent,
  type RulesFile,
} from './rules-file';

/** An active rule of the scope, as the registry lists it (the members the plan reads). */
export interface CurrentRule {
  id: string;
  [field: string]: unknown;
}

export type PlanStep =
  | { op: 'create'; rule: FileRule }
  | { op: 'update'; id: string; rule: FileRule; before: RuleContent; fields: ContentField[] }
  | { op: 'archive'; id: string; before: RuleContent };

export interface Plan {
  scope: string;
  steps: PlanStep[];
  unchanged: { id: string; rule: FileRule }[];
}

/** The file cannot be matched against the scope unambiguously; the messages say which rule and why. */
export class PlanError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'PlanError';
  }
}

/** Matches the file's rules with the scope's active rules and says what changes; throws PlanError when ambiguous. */
export function planChanges(file: RulesFile, current: readonly CurrentRule[]): Plan {
  const problems: string[] = [];
  const byId = new Map(current.map((r) => [r.id, r]));
  const claimed = new Map<string, FileRule>();
  const matches = new Map<FileRule, CurrentRule>();
  for (const rule of file.rules) {
    if (rule.id === null) continue;
    const found = byId.get(rule.id);
    if (!found)
      problems.push(
        `${file.name}:${rule.line}: ${rule.where}: ${rule.id} is not an active rule of scope ${file.scope} (remove the id to create the rule anew)`,
      );
    else {
      claimed.set(found.id, rule);
      matches.set(rule, found);
    }
  }
  for (const rule of file.rules) {
    if (rule.id !== null) continue;
    const same = current.filter((r) => !claimed.has(r.id) && r.directive === rule.content.directive);
    if (same.length > 1) {
      problems.push(
        `${file.name}:${rule.line}: ${rule.where}: the directive matches ${same.length} active rules (${same.map((r) => r.id).join(', ')}): name the one you mean with id`,
      );
    } else if (same.length === 1) {
      claimed.set(same[0].id, rule);
      matches.set(rule, same[0]);
    }
  }
  if (problems.length) throw new PlanError(problems);

  const steps: PlanStep[] = [];
  const unchanged: Plan['unchanged'] = [];
  for (const rule of file.rules) {
    const found = matches.get(rule);
    if (!found) {
      steps.push({ op: 'create', rule });
      continue;
    }
    const before = normaliseContent(found);
    const fields = changedFields(before, rule.content);
    if (fields.length) steps.push({ op: 'update', id: found.id, rule, before, fields });
    else unchanged.push({ id: found.id, rule });
  }
  for (const r of current) if (!claimed.has(r.id)) steps.push({ op: 'archive', id: r.id, before: normaliseContent(r) });
  return { scope: file.scope, steps, unchanged };
}

export const countOf = (plan: Plan, op: PlanStep['op']) => plan.steps.filter((s) => s.op === op).length;

/** The plan as the simulation's changes (docs/verdicts.md "Simulation"). */
export function simulationChanges(plan: Plan): Record<string, unknown>[] {
  return plan.steps.map((s) =>
    s.op === 'create'
      ? { op: 'create', rule: { scope_id: plan.scope, ...ruleBody(s.rule.content) } }
      : s.op === 'update'
        ? { op: 'update', rule_id: s.id, rule: ruleBody(s.rule.content) }
        : { op: 'archive', rule_id: s.id },
  );
}

const show = (v: unknown) => (v === null ? 'null' : typeof v === 'string' ? JSON.stringify(v) : canonicalJson(v));
const quote = (text: string) => JSON.stringify(text.length > 72 ? `${text.slice(0, 71)}…` : text);

/** The plan's human lines: one per step, each changed field with its old and new value. */
export function renderPlan(plan: Plan): string[] {
  const n = (op: PlanStep['op']) => countOf(plan, op);
  const lines = [
    `scope ${plan.scope}: ${n('create')} to create, ${n('update')} to update, ${n('archive')} to archive, ${plan.unchanged.length} unchanged`,
  ];
  for (const s of plan.steps) {
    if (s.op === 'create') lines.push(`  + create   ${quote(s.rule.content.directive)} (${s.rule.where})`);
    else if (s.op === 'archive') lines.push(`  - archive  ${s.id} ${quote(s.before.directive)}`);
    else {
      lines.push(`  ~ update   ${s.id} ${quote(s.rule.content.directive)} (${s.rule.where})`);
      for (const f of s.fields) lines.push(`      ${f}: ${show(s.before[f])} → ${show(s.rule.content[f])}`);
    }
  }
  return lines;
}

/** The plan as JSON (--json): each step with its body or changed fields. */
export function planJson(plan: Plan) {
  return {
    scope: plan.scope,
    create: plan.steps.flatMap((s) => (s.op === 'create' ? [{ where: s.rule.where, rule: ruleBody(s.rule.content) }] : [])),
    update: plan.steps.flatMap((s) =>
      s.op === 'update'
        ? [
            {
              rule_id: s.id,
              where: s.rule.where,
              changes: Object.fromEntries(s.fields.map((f) => [f, { before: s.before[f], after: s.rule.content[f] }])),
            },
          ]
        : [],
    ),
    archive: plan.steps.flatMap((s) => (s.op === 'archive' ? [{ rule_id: s.id, directive: s.before.directive }] : [])),
    unchanged: plan.unchanged.map((u) => u.id),
  };
}

// The benchmark fixture's rules as an equivalent Cedar policy set (for @cedar-policy/cedar-wasm), and
// the same precedence the engine applies on the policies Cedar reports as satisfied. Equivalence:
// - a rule is one `permit` policy; the engine's candidate selection (scope selector, action and
//   resource globs) comes first in its `when` clause, so Cedar's `&&` short-circuits just as the
//   engine's candidate filter does; conditions follow (all: `&&`, any: `||`);
// - Requirements on provenance (verified, acceptable sources, confidence threshold) are clauses on
//   the context Fact of the field;
// - overrides in effect at the fixture's `now` become `unless` clauses on their scope; expired ones
//   are left out (Cedar would need the clock as context to do more);
// - Cedar answers which policies were satisfied; the verdict is the dominating one by severity,
//   scope match, priority, recency, version id, computed here in JavaScript (and timed with Cedar).
import type { EngineRule, EvaluationRequest, Fact, Scope } from '@arbiter/policy';
import type { BenchmarkFixture } from '@arbiter/testing/benchmark-fixture';
import { SEVERITIES } from '@arbiter/policy';

const str = (s: string) => JSON.stringify(s);

function literal(v: unknown): string {
  if (typeof v === 'string') return str(v);
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new Error(`Cedar Long only: ${v}`);
    return String(v);
  }
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  throw new Error(`no Cedar literal for ${JSON.stringify(v)}`);
}

/** Cedar `like` patterns use `*` as the wildcard, like the engine's globs (the fixture has no `?`). */
function likeAny(expr: string, globs: readonly string[] | null | undefined): string | null {
  if (!globs || globs.length === 0 || globs.includes('*')) return null;
  return `(${globs.map((g) => `${expr} like ${str(g)}`).join(' || ')})`;
}

function scopeClause(selector: Scope): string[] {
  return Object.entries(selector).map(([k, v]) => `(context.scope has ${str(k)} && context.scope[${str(k)}] == ${literal(v)})`);
}

export function cedarPolicies(fixture: BenchmarkFixture): Record<string, string> {
  const active = fixture.overrides.filter((o) => o.expires_at === null || Date.parse(o.expires_at) > fixture.now);
  const policies: Record<string, string> = {};
  for (const rule of fixture.rules) {
    const verified = new Set((rule.requires ?? []).map((r) => r.field));
    const read = (field: string) => (verified.has(field) ? `context.facts[${str(field)}].value` : `context.f[${str(field)}]`);
    const clauses: string[] = [...scopeClause(rule.selector)];
    const actions = likeAny('context.action', rule.applies_to?.actions);
    if (actions) clauses.push(actions);
    const resources = likeAny('context.resource', rule.applies_to?.resources);
    if (resources) clauses.push(resources);
    for (const r of rule.requires ?? []) {
      const fact = `context.facts[${str(r.field)}]`;
      if (r.source_requirement === 'verified') clauses.push(`${fact}.verified`);
      if (r.acceptable_sources) clauses.push(`${literal([...r.acceptable_sources])}.contains(${fact}.source)`);
      if (r.confidence_threshold !== undefined)
        clauses.push(`${fact}.confidence.greaterThanOrEqual(decimal(${str(r.confidence_threshold.toFixed(4))}))`);
    }
    const rows = (rule.conditions ?? []).map((c) => {
      const x = read(c.field);
      switch (c.op) {
        case 'eq':
          return `${x} == ${literal(c.value)}`;
        case 'neq':
          return `${x} != ${literal(c.value)}`;
        case 'in':
          return `${literal(c.value)}.contains(${x})`;
        case 'not_in':
          return `!(${literal(c.value)}.contains(${x}))`;
        case 'gt':
          return `${x} > ${literal(c.value)}`;
        case 'gte':
          return `${x} >= ${literal(c.value)}`;
        case 'lt':
          return `${x} < ${literal(c.value)}`;
        case 'lte':
          return `${x} <= ${literal(c.value)}`;
        default:
          throw new Error(`op ${c.op} is not in the fixture`);
      }
    });
    if (rows.length) clauses.push(rule.condition_mode === 'any' ? `(${rows.join(' || ')})` : rows.join(' && '));
    const unless = active
      .filter((o) => o.target_rule_ids.includes(rule.rule_id))
      .map((o) => (Object.keys(o.applies_to_scope).length ? scopeClause(o.applies_to_scope).join(' && ') : 'true'));
    policies[rule.rule_id] =
      `permit(principal, action, resource) when { ${clauses.length ? clauses.join(' && ') : 'true'} }` +
      (unless.length ? ` unless { ${unless.map((u) => `(${u})`).join(' || ')} };` : ';');
  }
  return policies;
}

/** The Cedar context of a fixture request: flattened parameters, Facts with their provenance, scope, action, resource. */
export function cedarContext(req: EvaluationRequest): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  const walk = (prefix: string, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x);
    else f[prefix] = v;
  };
  walk('', req.parameters ?? {});
  const facts: Record<string, unknown> = {};
  for (const [k, fact] of Object.entries((req.context ?? {}) as Record<string, Fact>)) {
    facts[k] = {
      value: fact.value as string,
      source: fact.source,
      verified: fact.verification_status === 'verified',
      confidence: { __extn: { fn: 'decimal', arg: (fact.confidence ?? 0).toFixed(4) } },
    };
  }
  return { action: req.action, resource: req.resource, scope: { ...req.scope }, f, facts };
}

interface RuleRank {
  rule: EngineRule;
  severity: number;
  createdMs: number;
}

/** The engine's precedence over the rules Cedar reports satisfied (scope match depends on the request). */
export function precedence(fixture: BenchmarkFixture) {
  const ranks = new Map<string, RuleRank>(
    fixture.rules.map((r) => [r.rule_id, { rule: r, severity: SEVERITIES[r.severity].rank, createdMs: Date.parse(r.version_created_at) }]),
  );
  const scopeRank = (selector: Scope, scope: Scope) => {
    const n = Object.keys(selector).length;
    return n === 0 ? 2 : n === Object.keys(scope).length ? 0 : 1;
  };
  return (firing: readonly string[], scope: Scope, defaultVerdict: string): { verdict: string; dominating: string | null } => {
    let best: RuleRank | null = null;
    let bestScope = 3;
    for (const id of firing) {
      const r = ranks.get(id)!;
      const s = scopeRank(r.rule.selector, scope);
      if (
        !best ||
        r.severity < best.severity ||
        (r.severity === best.severity &&
          (s < bestScope ||
            (s === bestScope &&
              ((r.rule.priority ?? 0) > (best.rule.priority ?? 0) ||
                ((r.rule.priority ?? 0) === (best.rule.priority ?? 0) &&
                  (r.createdMs > best.createdMs ||
                    (r.createdMs === best.createdMs && r.rule.rule_version_id > best.rule.rule_version_id)))))))
      ) {
        best = r;
        bestScope = s;
      }
    }
    if (!best) return { verdict: defaultVerdict, dominating: null };
    return { verdict: best.rule.verdict ?? SEVERITIES[best.rule.severity].verdict, dominating: best.rule.rule_id };
  };
}

// A deterministic, realistic rule set for benchmarks (bench/verdict) and tests: n rules over a few
// business domains, scope selectors of every width, every severity, numeric, enum, boolean and string
// conditions, Requirements on provenance, a few overrides, and check requests that are fully shaped
// (every field any candidate names is present), so every request evaluates to a complete verdict.
import type { EngineOverride, EngineRule, EvaluationRequest, Fact, Requirement, Severity, TenantPolicy } from '@arbiter/policy';

export interface BenchmarkFixture {
  rules: EngineRule[];
  overrides: EngineOverride[];
  policy: TenantPolicy;
  /** Check requests cycling over every action, scope combination and value range. */
  requests: EvaluationRequest[];
  /** The instant to evaluate at: some overrides are in effect, some expired. */
  now: number;
}

type FieldKind = { kind: 'number'; min: number; max: number } | { kind: 'enum'; values: string[] } | { kind: 'bool' };

interface Domain {
  actions: string[];
  resource: (rand: () => number) => string;
  resourceGlobs: string[];
  fields: Record<string, FieldKind>;
}

const COUNTRIES = ['DE', 'FR', 'US', 'GB', 'JP', 'BR', 'IN', 'NG', 'IR', 'KP', 'RU', 'CH'];
const DOMAINS: Domain[] = [
  {
    actions: ['payments.transfer', 'payments.refund', 'payments.payout'],
    resource: (r) => `acct:${['eu', 'us', 'apac'][Math.floor(r() * 3)]}/${Math.floor(r() * 100000)}`,
    resourceGlobs: ['acct:eu/*', 'acct:us/*', 'acct:apac/*'],
    fields: {
      'transfer.amount': { kind: 'number', min: 0, max: 1_000_000 },
      'transfer.currency': { kind: 'enum', values: ['EUR', 'USD', 'GBP', 'JPY', 'CHF'] },
      'beneficiary.country': { kind: 'enum', values: COUNTRIES },
      'beneficiary.is_new': { kind: 'bool' },
      'customer.risk_score': { kind: 'number', min: 0, max: 100 },
      'customer.kyc_status': { kind: 'enum', values: ['verified', 'pending', 'failed'] },
    },
  },
  {
    actions: ['data.export', 'data.delete', 'data.share'],
    resource: (r) => `dataset:${['crm', 'hr', 'finance', 'logs'][Math.floor(r() * 4)]}`,
    resourceGlobs: ['dataset:hr', 'dataset:finance', 'dataset:*'],
    fields: {
      'export.row_count': { kind: 'number', min: 0, max: 5_000_000 },
      'export.contains_pii': { kind: 'bool' },
      'destination.country': { kind: 'enum', values: COUNTRIES },
      'destination.kind': { kind: 'enum', values: ['internal', 'partner', 'public'] },
    },
  },
  {
    actions: ['infra.deploy', 'infra.rollback', 'infra.scale'],
    resource: (r) => `svc:${['api', 'web', 'billing', 'search'][Math.floor(r() * 4)]}`,
    resourceGlobs: ['svc:billing', 'svc:*'],
    fields: {
      'change.risk': { kind: 'enum', values: ['low', 'medium', 'high'] },
      'change.in_window': { kind: 'bool' },
      'change.reviewers': { kind: 'number', min: 0, max: 4 },
      'change.lines': { kind: 'number', min: 1, max: 20000 },
    },
  },
  {
    actions: ['email.send', 'email.bulk_send'],
    resource: (r) => `list:${['customers', 'staff', 'partners'][Math.floor(r() * 3)]}`,
    resourceGlobs: ['list:customers', 'list:*'],
    fields: {
      'email.recipients': { kind: 'number', min: 1, max: 100000 },
      'email.external': { kind: 'bool' },
      'email.has_attachment': { kind: 'bool' },
    },
  },
];

/** Fields every request carries (read by the cross-domain rules). */
const COMMON: Record<string, FieldKind> = {
  'agent.trust_level': { kind: 'number', min: 0, max: 10 },
  'request.channel': { kind: 'enum', values: ['api', 'chat', 'batch'] },
};

const SCOPE_FIELDS: Record<string, string[]> = {
  region: ['eu', 'us', 'apac'],
  env: ['prod', 'staging'],
  business_unit: ['retail', 'corporate', 'treasury'],
};

/** Fields held to provenance Requirements: supplied as verified context Facts, not parameters. */
const VERIFIED_FIELDS = new Set(['customer.kyc_status', 'beneficiary.country', 'destination.country']);
const SOURCES = ['core-banking', 'kyc-provider'];

/** mulberry32: a small seeded PRNG, so the fixture is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE_TIME = Date.parse('2026-01-01T00:00:00Z');

export function benchmarkFixture(n: number, seed = 1): BenchmarkFixture {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const chance = (p: number): boolean => rand() < p;

  // Blocking rules are written narrowly (high thresholds, single values), as real deny rules are.
  const condition = (field: string, k: FieldKind, narrow: boolean): EngineRule['conditions'] => {
    if (k.kind === 'number') {
      if (narrow) return [{ field, op: 'gt', value: Math.round(k.min + (k.max - k.min) * (0.85 + 0.14 * rand())) }];
      const bound = Math.round(k.min + (k.max - k.min) * (0.3 + 0.6 * rand()));
      return [{ field, op: pick(['gt', 'gte', 'lt', 'lte'] as const), value: bound }];
    }
    if (k.kind === 'bool') return [{ field, op: 'eq', value: chance(0.5) }];
    if (narrow) return [{ field, op: 'eq', value: pick(k.values) }];
    const some = k.values.filter(() => chance(0.35));
    if (some.length > 1) return [{ field, op: pick(['in', 'not_in'] as const), value: some }];
    return [{ field, op: pick(['eq', 'neq'] as const), value: pick(k.values) }];
  };

  const rules: EngineRule[] = [];
  for (let i = 0; i < n; i++) {
    const id = String(i).padStart(5, '0');
    const domain = pick(DOMAINS);
    const crossDomain = chance(0.08);
    const severity: Severity = pick([
      'MANDATORY',
      'MANDATORY',
      'REQUIRES_APPROVAL',
      'REQUIRES_APPROVAL',
      'REQUIRES_APPROVAL',
      'ADVISORY',
      'ALLOW',
    ] as const);
    const selector: Record<string, string> = {};
    const width = pick([0, 0, 1, 1, 1, 2, 2, 3]);
    for (const key of Object.keys(SCOPE_FIELDS)
      .filter(() => chance(0.7))
      .slice(0, width)) {
      selector[key] = pick(SCOPE_FIELDS[key]);
    }
    const fieldPool = crossDomain ? COMMON : { ...domain.fields, ...COMMON };
    const narrow = severity === 'MANDATORY';
    const names = Object.keys(fieldPool)
      .filter(() => chance(0.45))
      .slice(0, 3);
    while (names.length < (narrow ? 2 : 1)) {
      const extra = pick(Object.keys(fieldPool));
      if (!names.includes(extra)) names.push(extra);
    }
    const conditions = names.flatMap((f) => condition(f, fieldPool[f], narrow) ?? []);
    const requires: Requirement[] = names
      .filter((f) => VERIFIED_FIELDS.has(f))
      .map((f) => ({
        field: f,
        type: 'enum',
        reason: 'screening needs a verified value',
        source_requirement: 'verified',
        acceptable_sources: SOURCES,
        confidence_threshold: 0.9,
      }));
    const actions = crossDomain
      ? [pick(['payments.*', 'data.*', 'infra.*', 'email.*', '*'])]
      : chance(0.85)
        ? [pick(domain.actions)]
        : [`${domain.actions[0].split('.')[0]}.*`];
    const rule: EngineRule = {
      rule_id: `rul-${id}`,
      rule_version_id: `rv-${id}-${Math.floor(rand() * 1e6)}`,
      selector,
      severity,
      applies_to: chance(0.3) && !crossDomain ? { actions, resources: [pick(domain.resourceGlobs)] } : { actions },
      conditions,
      condition_mode: !narrow && chance(0.2) ? 'any' : 'all',
      requires,
      deciders: severity === 'REQUIRES_APPROVAL' ? [pick(['role-cfo', 'role-security', 'role-dpo', 'hum-oncall'])] : [],
      priority: chance(0.2) ? Math.floor(rand() * 10) : undefined,
      version_created_at: new Date(BASE_TIME + Math.floor(rand() * 86_400_000 * 30)).toISOString(),
      statement: `${severity} rule ${id} on ${actions.join(', ')}`,
    };
    if (chance(0.05)) rule.verdict = pick(['escalate', 'needs_review']);
    rules.push(rule);
  }

  const now = BASE_TIME + 86_400_000 * 45;
  const overrides: EngineOverride[] = [];
  for (let i = 0; i < Math.max(1, Math.floor(n / 50)) && rules.length > 0; i++) {
    overrides.push({
      id: `ovr-${String(i).padStart(5, '0')}`,
      target_rule_ids: [pick(rules).rule_id],
      applies_to_scope: chance(0.5) ? { region: pick(SCOPE_FIELDS.region) } : {},
      // Every other one in effect; the rest expired a day before `now`.
      expires_at: new Date(now + (i % 2 === 0 ? 86_400_000 : -86_400_000)).toISOString(),
      type: chance(0.5) ? 'temporary' : 'approval_grant',
      created_at: new Date(BASE_TIME).toISOString(),
    });
  }

  const value = (k: FieldKind): unknown =>
    k.kind === 'number' ? Math.round(k.min + (k.max - k.min) * rand()) : k.kind === 'bool' ? chance(0.5) : pick(k.values);
  const setPath = (obj: Record<string, unknown>, path: string, v: unknown): void => {
    const segs = path.split('.');
    let cur = obj;
    for (const s of segs.slice(0, -1)) cur = (cur[s] ??= {}) as Record<string, unknown>;
    cur[segs[segs.length - 1]] = v;
  };
  const requests: EvaluationRequest[] = [];
  for (let i = 0; i < 64; i++) {
    const domain = DOMAINS[i % DOMAINS.length];
    const parameters: Record<string, unknown> = {};
    const context: Record<string, Fact> = {};
    for (const [f, k] of Object.entries({ ...domain.fields, ...COMMON })) {
      if (VERIFIED_FIELDS.has(f)) {
        context[f] = { value: value(k), source: pick(SOURCES), verification_status: 'verified', confidence: 0.97 };
      } else setPath(parameters, f, value(k));
    }
    const scope: Record<string, string> = {};
    for (const [key, values] of Object.entries(SCOPE_FIELDS)) if (chance(0.8)) scope[key] = pick(values);
    requests.push({
      mode: 'check',
      action: pick(domain.actions),
      resource: domain.resource(rand),
      scope,
      parameters,
      context,
    });
  }

  return { rules, overrides, policy: { default_verdict: 'allowed' }, requests, now };
}

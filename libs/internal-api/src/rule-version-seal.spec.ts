import { createHash } from 'node:crypto';
import { publicRuleVersion, ruleVersionContentHash, ruleVersionSealPayload } from './rule-version-seal';

/** A hand-written RFC 8785 serialiser (keys sorted, no whitespace): the hash is not checked with the code that made it. */
function jcs(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jcs).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${jcs(o[k])}`)
    .join(',')}}`;
}
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

/** A registry rule version as its internal API answers it. */
const registryVersion = (extra: Record<string, unknown> = {}) => ({
  id: 'rv-1',
  rule_id: 'rul-1',
  tenant_id: 'tnt-1',
  scope_id: 'scp-1',
  version: 1,
  directive: 'Transfers above 10,000 are blocked',
  severity: 'MANDATORY',
  verdict: null,
  applies_to: { actions: ['payments.transfer'] },
  conditions: [{ field: 'amount', op: 'gt', value: 10000 }],
  condition_mode: 'all',
  requires: [],
  deciders: [],
  priority: null,
  author: 'hum-1',
  author_type: 'human',
  created_at: '2026-01-01T00:00:00.000Z',
  created_by: 'hum-1',
  status: 'current',
  rule_status: 'active',
  ...extra,
});

describe(publicRuleVersion.name, () => {
  // The public form as it was before rules had a mode: its content hash was sealed for every version made then.
  const { directive, status: _s, rule_status: _r, ...rest } = registryVersion();
  const before = { ...rest, statement: directive };

  it('leaves an enforced version exactly as it was, so content hashes sealed before modes still verify', () => {
    for (const v of [registryVersion(), registryVersion({ mode: 'enforce' })]) {
      const sut = publicRuleVersion(v);
      expect(sut).not.toHaveProperty('mode');
      expect(ruleVersionContentHash(sut)).toBe(sha(jcs(before)));
    }
  });

  it('carries mode shadow on a shadow version, bound by its content hash', () => {
    const sut = publicRuleVersion(registryVersion({ mode: 'shadow' }));
    expect(sut.mode).toBe('shadow');
    expect(ruleVersionSealPayload(sut)).toEqual({
      rule_version_id: 'rv-1',
      rule_id: 'rul-1',
      version: 1,
      content_hash: sha(jcs({ ...before, mode: 'shadow' })),
    });
    expect(ruleVersionContentHash(sut)).not.toBe(sha(jcs(before)));
  });

  it('leaves a version without limit and requires_prior (null, as the registry answers it) exactly as it was', () => {
    const sut = publicRuleVersion(registryVersion({ limit: null, requires_prior: null }));
    expect(sut).not.toHaveProperty('limit');
    expect(sut).not.toHaveProperty('requires_prior');
    expect(ruleVersionContentHash(sut)).toBe(sha(jcs(before)));
  });

  it('carries a limit and a requires_prior member by member, bound by the content hash', () => {
    const limit = { sum: 'parameters.amount', max: 5000, window: '24h', by: ['principal'] };
    const withLimit = publicRuleVersion(registryVersion({ limit: { ...limit, stray: 'dropped' }, requires_prior: null }));
    expect(withLimit.limit).toEqual(limit);
    expect(ruleVersionContentHash(withLimit)).toBe(sha(jcs({ ...before, limit })));
    const prior = { action: 'orders.review', within: '1h', same: ['parameters.order_id'] };
    const withPrior = publicRuleVersion(registryVersion({ limit: null, requires_prior: prior }));
    expect(withPrior.requires_prior).toEqual(prior);
    expect(ruleVersionContentHash(withPrior)).toBe(sha(jcs({ ...before, requires_prior: prior })));
    const counted = publicRuleVersion(registryVersion({ limit: { count: true, max: 50, window: '1h', by: [] } }));
    expect(counted.limit).toEqual({ count: true, max: 50, window: '1h', by: [] });
  });
});

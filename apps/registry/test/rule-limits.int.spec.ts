// docs/verdicts.md "Rule limits" through the registry's API: each bound refused with 400 {detail} naming
// the field, and one rule just inside every bound accepted (the verdict gateway evaluates it).
import { RULE_LIMITS } from '@arbiter/policy';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness } from './harness';
import { api, createScope, type Api } from './fixtures';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const L = RULE_LIMITS;

describe('registry rule limits', () => {
  let h: RegistryHarness;
  let rules: Api;
  let scopeId: string;
  const base = { directive: 'd', severity: 'MANDATORY' };
  const post = (body: object) => rules.post(`/api/v1/scopes/${scopeId}/rules`, { ...base, ...body });

  beforeAll(async () => {
    h = await startTestRegistry();
    const t = await createTenantWithAdmin(h, 'limits');
    scopeId = (await createScope(api(h, t.admin.key), 'all', {})).id;
    // A key that may write rules and nothing else: the limits are what stops it, not a permission.
    rules = api(h, (await createPrincipalWithKey(h, t.admin.key, { permissions: ['manage_rules'] })).key);
  });
  afterAll(() => h.stop());

  it('accepts a rule just inside every limit, and PUT accepts it too', async () => {
    const atLimits = {
      applies_to: {
        actions: range(L.globsPerList).map((i) => `act.${i}.*`),
        resources: [
          `${'*?'.repeat(L.wildcardsPerGlob / 2)}`.padEnd(L.globLength, 'x'),
          ...range(L.globsPerList - 1).map((i) => `res:${i}`),
        ],
      },
      conditions: [
        { field: 'f'.repeat(L.fieldLength), op: 'in', value: range(L.listValues) },
        { field: 'g', op: 'contains', value: 'x'.repeat(L.valueJsonLength - 2) },
        ...range(L.conditions - 2).map(() => ({ field: 'h', op: 'exists' })),
      ],
      requires: [
        {
          field: 'r',
          type: 'enum',
          allowed_values: range(L.allowedValues),
          acceptable_sources: range(L.acceptableSources).map((i) => `s${i}`),
        },
        ...range(L.requires - 1).map((i) => ({ field: `r${i}`, type: 'string' })),
      ],
    };
    const created = await post(atLimits).expect(201);
    await rules.put(`/api/v1/scopes/${scopeId}/rules/${created.body.id}`, { ...base, ...atLimits }).expect(200);
  });

  it.each<[string, object, RegExp]>([
    ['101 action globs', { applies_to: { actions: range(101).map((i) => `a${i}`) } }, /applies_to\.actions/],
    ['101 resource globs', { applies_to: { resources: range(101).map((i) => `r${i}`) } }, /applies_to\.resources/],
    ['a glob of 501 characters', { applies_to: { resources: ['r'.repeat(501)] } }, /resources.*500/],
    [
      'a glob of 65 wildcards',
      { applies_to: { actions: ['*?'.repeat(32) + '?'] } },
      /applies_to\.actions\[0\]: a glob has at most 64 wildcards \(\* and \? together\); this one has 65/,
    ],
    ['101 conditions', { conditions: range(101).map(() => ({ field: 'a', op: 'exists' })) }, /conditions/],
    ['101 requirements', { requires: range(101).map((i) => ({ field: `f${i}`, type: 'string' })) }, /requires/],
    [
      'an in list of 1,001 values',
      { conditions: [{ field: 'a', op: 'in', value: range(1001) }] },
      /conditions\[0\]\.value: op in takes at most 1000 values; this one has 1001/,
    ],
    [
      'a not_in list of 1,001 values',
      { conditions: [{ field: 'a', op: 'not_in', value: range(1001).map(String) }] },
      /conditions\[0\]\.value: op not_in takes at most 1000 values/,
    ],
    [
      'a value of 65,537 characters as JSON',
      { conditions: [{ field: 'a', op: 'eq', value: 'x'.repeat(65_535) }] },
      /conditions\[0\]\.value: at most 65536 characters as JSON; this one has 65537/,
    ],
    ['a field path of 201 characters', { conditions: [{ field: 'f'.repeat(201), op: 'exists' }] }, /conditions/],
    ['1,001 allowed_values', { requires: [{ field: 'a', type: 'enum', allowed_values: range(1001) }] }, /allowed_values/],
    [
      '101 acceptable_sources',
      { requires: [{ field: 'a', type: 'string', acceptable_sources: range(101).map((i) => `s${i}`) }] },
      /acceptable_sources/,
    ],
  ])('refuses %s with 400 naming the field', async (_what, body, detail) => {
    const res = await post(body).expect(400);
    expect(res.body).toEqual({ detail: expect.stringMatching(detail) });
  });
});

import { isKeyPath, limitProblems, limitSpec, priorProblems, priorSpec, windowFieldProblems, windowMs } from './window-rules';

describe(windowMs.name, () => {
  it('reads s, m, h and d from one second to 366 days', () => {
    expect(windowMs('1s')).toBe(1_000);
    expect(windowMs('90s')).toBe(90_000);
    expect(windowMs('15m')).toBe(900_000);
    expect(windowMs('24h')).toBe(86_400_000);
    expect(windowMs('366d')).toBe(366 * 86_400_000);
    for (const bad of ['0s', '367d', '1.5h', '01h', '1H', '1w', 'h', '', ' 1h', 60, null]) expect(windowMs(bad)).toBeNull();
  });
});

describe(isKeyPath.name, () => {
  it('takes principal, on_behalf_of, resource and parameters.<dot path>', () => {
    for (const p of ['principal', 'on_behalf_of', 'resource', 'parameters.a', 'parameters.a.b_c-1']) expect(isKeyPath(p)).toBe(true);
    for (const p of ['action', 'scope.region', 'parameters', 'parameters.', 'parameters.a..b', 'amount', `parameters.${'a'.repeat(200)}`]) {
      expect(isKeyPath(p)).toBe(false);
    }
  });
});

describe(limitProblems.name, () => {
  it('accepts a count and a sum', () => {
    expect(limitProblems({ count: true, max: 50, window: '1h', by: ['principal'] })).toEqual([]);
    expect(limitProblems({ sum: 'parameters.amount', max: 5000.5, window: '24h' })).toEqual([]);
  });

  it('names each bad member', () => {
    expect(
      limitProblems({ count: true, sum: 'parameters.a', max: 0, window: '1y', by: ['x', 'principal', 'principal'], extra: 1 }),
    ).toEqual([
      'limit.extra: not a member of limit (count, sum, max, window, by)',
      'limit: exactly one of count (true) and sum (a parameters.<field> path)',
      'limit.max: a number above 0 and at most 1000000000000000',
      'limit.window: a duration from 1s to 366d, such as 90s, 15m, 1h, 24h or 7d',
      'limit.by[0]: principal, on_behalf_of, resource or parameters.<field> (a dot path)',
      'limit.by[2]: principal is listed twice',
    ]);
    expect(limitProblems({ count: true, max: 1.5, window: '1h' })).toEqual(['limit.max: an integer when counting']);
    expect(limitProblems({ count: false, max: 1, window: '1h' })).toEqual(['limit.count: true (count the operations)']);
    expect(limitProblems('x')).toEqual(['limit: an object {count | sum, max, window, by}']);
    expect(limitProblems({ count: true, max: 1, window: '1h', by: ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `parameters.${x}`) })).toEqual([
      'limit.by: at most 5 paths',
    ]);
  });
});

describe(priorProblems.name, () => {
  it('accepts a prior and names each bad member', () => {
    expect(priorProblems({ action: 'orders.review', within: '1h', same: ['parameters.order_id'] })).toEqual([]);
    expect(priorProblems({ action: '', within: '0s', same: 'principal' })).toEqual([
      "requires_prior.action: the earlier operation's action name (1 to 200 characters)",
      'requires_prior.within: a duration from 1s to 366d, such as 15m, 1h or 7d',
      'requires_prior.same: a list of paths (principal, on_behalf_of, resource, parameters.<field>)',
    ]);
  });
});

describe(windowFieldProblems.name, () => {
  it('leaves rules without the fields alone, and refuses both at once or on an ALLOW rule', () => {
    expect(windowFieldProblems({ severity: 'ALLOW' })).toEqual([]);
    expect(windowFieldProblems({ severity: 'ALLOW', limit: null, requires_prior: null })).toEqual([]);
    const limit = { count: true, max: 1, window: '1h' };
    const prior = { action: 'a', within: '1h' };
    expect(windowFieldProblems({ severity: 'MANDATORY', limit, requires_prior: prior })).toEqual([
      'requires_prior: a rule holds either limit or requires_prior, not both (write two rules)',
    ]);
    expect(windowFieldProblems({ severity: 'ALLOW', requires_prior: prior })).toEqual([
      'requires_prior: only a rule of severity MANDATORY, REQUIRES_APPROVAL, ADVISORY may hold it',
    ]);
  });
});

describe('stored forms', () => {
  it('fill in the key lists and keep exactly one of count and sum', () => {
    expect(limitSpec({ count: true, sum: null, max: 2, window: '1m', by: null })).toEqual({ count: true, max: 2, window: '1m', by: [] });
    expect(priorSpec({ action: 'a', within: '1h' })).toEqual({ action: 'a', within: '1h', same: [] });
  });
});

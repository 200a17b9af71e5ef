import { activationOf, CelConditionError, compileCondition, conditionProblem, MAX_CONDITION_INPUT } from './condition';
import { conditionPaths } from './paths';

const run = (source: string, paths: Record<string, unknown>) => {
  const sut = compileCondition(source);
  return sut.evaluate(
    activationOf(
      sut.paths,
      sut.paths.map((p) => paths[p]),
    ),
  );
};

describe(compileCondition.name, () => {
  it('evaluates a boolean expression over the context', () => {
    expect(run('amount < 20 && currency == "EUR"', { amount: 19.99, currency: 'EUR' })).toEqual({ ok: true, value: true });
    expect(run('amount < 20 && currency == "EUR"', { amount: 999999, currency: 'USD' })).toEqual({ ok: true, value: false });
  });

  it('compares JSON numbers with int and double literals alike (CEL numeric comparisons)', () => {
    expect(run('amount == 20', { amount: 20 })).toEqual({ ok: true, value: true });
    expect(run('amount <= 20.5 && amount > 20', { amount: 20.25 })).toEqual({ ok: true, value: true });
    expect(run('amount in [1, 2.5]', { amount: 2.5 })).toEqual({ ok: true, value: true });
  });

  it('reads nested maps, lists, strings and null', () => {
    expect(
      run('transfer.country in ["DE", "FR"] && transfer.amount <= 5000', { 'transfer.country': 'FR', 'transfer.amount': 5000 }),
    ).toEqual({ ok: true, value: true });
    expect(run('items.all(i, i.price < 100) && size(items) == 2', { items: [{ price: 5 }, { price: 99 }] })).toEqual({
      ok: true,
      value: true,
    });
    expect(run('note.startsWith("ok")', { note: 'ok then' })).toEqual({ ok: true, value: true });
    expect(run('approver == null', { approver: null })).toEqual({ ok: true, value: true });
  });

  it('answers an error, never throws, when evaluation fails or the result is not a boolean', () => {
    expect(run('amount < 20', { amount: 'lots' })).toEqual({ ok: false, error: expect.stringMatching(/overload/) });
    expect(run('amount < 20', { amount: null })).toMatchObject({ ok: false });
    expect(run('m.k == 1', { m: {} })).toEqual({ ok: false, error: 'evaluation failed (no_such_key)' });
    // The library's messages quote the values read; none reaches the trace (docs/verdicts.md "Sensitive fields").
    for (const [source, activation] of [
      ['{"a": true}[x]', { x: 'jane.doe@example.com' }],
      ['duration(x) > duration("1s")', { x: 'jane.doe@example.com' }],
      ['[1, 2][i] == 1', { i: 7314 }],
      ['timestamp(x) > timestamp("2020-01-01T00:00:00Z")', { x: 'jane.doe@example.com' }],
    ] as const) {
      const outcome = run(source, activation);
      expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/^evaluation failed \([a-z_]+\)$/) });
      expect(JSON.stringify(outcome)).not.toMatch(/jane|7314/);
    }
    expect(run('x', { x: 'yes' })).toEqual({ ok: false, error: 'the expression gave string, not a boolean' });
    expect(run('1 / zero == 1', { zero: 0 })).toMatchObject({ ok: false });
  });

  it('does not expose inherited properties of plain objects', () => {
    expect(run('m.constructor == 1', { m: {} })).toMatchObject({ ok: false });
    expect(run('has(m.constructor)', { m: {} })).toEqual({ ok: true, value: false });
  });

  it.each([
    ['free text', 'only the auth service', /not a CEL expression/],
    ['a syntax error', 'amount <', /not a CEL expression/],
    ['a number-valued expression', 'amount + 1', /must be a boolean expression; this one gives int/],
    ['a type error', '"x" + 1', /does not type-check/],
    ['an empty string', '  ', /non-empty/],
    ['a non-string', 42, /non-empty/],
    ['matches() (a regular expression can backtrack for seconds)', 'name.matches("^(a+)+$")', /matches\(\) is not allowed/],
    ['matches() as a function', 'matches(name, "a")', /matches\(\) is not allowed/],
    ['an expression too deep', `${'('.repeat(60)}a${')'.repeat(60)} == 1`, /not a CEL expression/],
    [
      'cel.bind() (a bound value doubled at each nested level grows exponentially)',
      'cel.bind(x, s + s, cel.bind(y, x + x, y.size() > 0))',
      /cel\.bind\(\) is not allowed/,
    ],
    [
      'a comprehension inside another (quadratic in a list the caller sends)',
      'items.all(i, items.exists(j, i == j))',
      /a comprehension .* inside another is not allowed/,
    ],
    ['a comprehension inside the transform of a map', 'size(items.map(i, items.filter(j, j == i))) > 0', /inside another is not allowed/],
  ])('refuses %s', (_what, source, message) => {
    expect(() => compileCondition(source)).toThrow(CelConditionError);
    expect(conditionProblem(source)).toMatch(message);
  });

  it('accepts a valid condition (conditionProblem answers null)', () => {
    expect(conditionProblem('scope.region == "eu" && action.startsWith("payments.")')).toBeNull();
  });

  it('accepts comprehensions one after another (a chain is linear) and side by side', () => {
    expect(conditionProblem('items.map(i, i.price).all(p, p < 10) && tags.exists(t, t == "x")')).toBeNull();
  });

  it('fails closed when the values it reads are larger than MAX_CONDITION_INPUT, whatever the expression', () => {
    const items = Array.from({ length: MAX_CONDITION_INPUT.elements + 1 }, (_, i) => i);
    expect(run('size(items) > 0', { items })).toEqual({
      ok: false,
      error: 'the values the expression reads hold more than 1000 list elements and map members',
    });
    expect(run('size(items) > 0', { items: items.slice(1) })).toEqual({ ok: true, value: true });
    const nested = { a: Array.from({ length: 600 }, () => ({ b: 1 })) };
    expect(run('size(m.a) > 0', { m: nested })).toMatchObject({ ok: false });
    expect(run('note.contains("x")', { note: 'y'.repeat(MAX_CONDITION_INPUT.characters + 1) })).toEqual({
      ok: false,
      error: 'the values the expression reads hold more than 10000 characters',
    });
    expect(run('note.contains("x") || other.contains("x")', { note: 'y'.repeat(6000), other: 'z'.repeat(6000) })).toMatchObject({
      ok: false,
    });
    expect(run('note.contains("y")', { note: 'y'.repeat(MAX_CONDITION_INPUT.characters - 4) })).toEqual({ ok: true, value: true });
  });
});

describe(conditionPaths.name, () => {
  const paths = (source: string) => compileCondition(source).paths;

  it('finds identifiers and dotted selections as paths, each once, in order of appearance', () => {
    expect(paths('amount < 20 && currency == "EUR" && amount > 1')).toEqual(['amount', 'currency']);
    expect(paths('transfer.amount < 3 && transfer.country == "DE"')).toEqual(['transfer.amount', 'transfer.country']);
  });

  it('reads the value an index, a method call or has() applies to', () => {
    expect(paths('items[0] == 1 && name.startsWith("x") && has(a.b)')).toEqual(['items', 'name', 'a']);
  });

  it('drops a path covered by a shorter one read whole', () => {
    expect(paths('transfer.amount < 3 && size(transfer) == 2')).toEqual(['transfer']);
  });

  it('leaves out variables bound by comprehension macros, but not free names inside them', () => {
    expect(paths('items.exists(i, i.price > limit)')).toEqual(['items', 'limit']);
    expect(paths('items.map(i, i.price).all(p, p < 10)')).toEqual(['items']);
  });

  it('counts every name of both branches of a conditional (all must be present)', () => {
    expect(paths('flag ? x : y')).toEqual(['flag', 'x', 'y']);
  });
});

describe(activationOf.name, () => {
  it('nests values at their dot paths', () => {
    expect(JSON.parse(JSON.stringify(activationOf(['a.b', 'a.c', 'd'], [1, 2, 3])))).toEqual({ a: { b: 1, c: 2 }, d: 3 });
  });
});

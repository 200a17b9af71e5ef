import { assertStorableQuery, assertStorableRequest } from './unstorable-strings';

// The guard's own cases (which strings, which depth, which numbers) are @arbiter/input's
// (libs/input/src/*.spec.ts); every service's answers, e2e/src/storable-json.e2e.spec.ts.
describe(assertStorableRequest.name, () => {
  const failure = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return err as { status: number; code: string; details: unknown };
    }
    throw new Error('no failure');
  };

  it('refuses the query, then the body, then the path, each with validation_failed naming the field', () => {
    expect(failure(() => assertStorableRequest('/t/v1/check?x=1&y=a%00', { a: 'b\u0000' }, { tenant_id: 't\u0000' }))).toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: { field: 'y', in: 'query' },
    });
    expect(failure(() => assertStorableRequest('/t/v1/check', { a: ['b\u0000'] }, { tenant_id: 't\u0000' })).details).toEqual({
      field: 'a[0]',
      in: 'body',
    });
    expect(failure(() => assertStorableRequest('/t/v1/check', { a: { b: 'x\ud800' } }, { tenant_id: 't' })).details).toEqual({
      field: 'a.b',
      in: 'body',
    });
    expect(failure(() => assertStorableRequest('/t/v1/check', {}, { tenant_id: 't\u0000' })).details).toEqual({
      field: 'tenant_id',
      in: 'path',
    });
    expect(() => assertStorableRequest('/t/v1/check?q=%2500', { a: 'é \ud83d\ude00' }, { tenant_id: 't' })).not.toThrow();
  });

  it('names a query parameter whose name holds U+0000', () => {
    expect(failure(() => assertStorableQuery('/x?a%00b=1')).details).toEqual({ field: '["a\\u0000b"]', in: 'query' });
  });
});

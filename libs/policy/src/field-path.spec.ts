import { compileAccessor, readField, valueAtPath, type FieldRead } from './field-path';
import type { EvaluationRequest } from './types';

const request = (extra: Partial<EvaluationRequest> = {}): EvaluationRequest => ({
  mode: 'check',
  action: 'payments.transfer',
  resource: 'acct:eu/1',
  scope: { region: 'eu' },
  ...extra,
});
const read = (path: string, req: EvaluationRequest): FieldRead => readField(compileAccessor(path), req, { value: undefined, fact: null });

describe(readField.name, () => {
  it('reads action, resource, scope and scope fields from the request itself', () => {
    const req = request({ context: { action: { value: 'spoofed', source: 'agent' }, 'scope.region': { value: 'us', source: 'agent' } } });
    expect(read('action', req).value).toBe('payments.transfer');
    expect(read('resource', req).value).toBe('acct:eu/1');
    expect(read('scope', req).value).toEqual({ region: 'eu' });
    expect(read('scope.region', req).value).toBe('eu');
    expect(read('scope.env', req).value).toBeUndefined();
  });

  it('descends into parameters by dot path in check, array indexes included', () => {
    const req = request({ parameters: { transfer: { amount: 50, legs: [{ iban: 'DE1' }] } } });
    expect(read('transfer.amount', req).value).toBe(50);
    expect(read('transfer.legs.0.iban', req).value).toBe('DE1');
    expect(read('transfer.legs.1.iban', req).value).toBeUndefined();
    expect(read('transfer.legs.01.iban', req).value).toBeUndefined();
    expect(read('transfer.amount.value', req).value).toBeUndefined();
    expect(read('transfer.currency', req).fact).toBeNull();
  });

  it('prefers a context Fact over a parameter of the same path, and returns the Fact', () => {
    const f = { value: 70, source: 'core', verification_status: 'verified' as const };
    const req = request({ parameters: { transfer: { amount: 50 } }, context: { 'transfer.amount': f } });
    expect(read('transfer.amount', req)).toEqual({ value: 70, fact: f });
  });

  it('keys Facts by the exact dot path only', () => {
    const req = request({ mode: 'resolve', context: { transfer: { value: { amount: 5 }, source: 's' } } });
    expect(read('transfer.amount', req).value).toBeUndefined();
    expect(read('transfer', req).value).toEqual({ amount: 5 });
  });

  it('ignores parameters in resolve', () => {
    expect(read('transfer.amount', request({ mode: 'resolve', parameters: { transfer: { amount: 50 } } })).value).toBeUndefined();
  });

  it('reads own properties only, never the prototype', () => {
    const req = request({ parameters: { a: {} }, context: {} });
    for (const path of ['constructor', 'a.constructor', 'toString', '__proto__', 'a.__proto__.x', 'hasOwnProperty', 'scope.constructor']) {
      expect(read(path, req).value).toBeUndefined();
    }
    const own = request({ parameters: JSON.parse('{"constructor": 1, "__proto__": {"x": 2}}') });
    expect(read('constructor', own).value).toBe(1);
    expect(read('__proto__.x', own).value).toBe(2);
  });

  it('treats null as a present value and a Fact without a value as absent', () => {
    expect(read('x', request({ parameters: { x: null } })).value).toBeNull();
    const req = request({ parameters: { x: 1 }, context: { x: { source: 's' } as never } });
    expect(read('x', req).value).toBe(1);
  });
});

describe(valueAtPath.name, () => {
  const payload = { kyc: { country: 'DE', lines: [{ sku: 'A-1' }], none: null }, 'a.b': 1 };

  it('reads nested members and array indexes, null included', () => {
    expect(valueAtPath(payload, 'kyc.country')).toBe('DE');
    expect(valueAtPath(payload, 'kyc.lines.0.sku')).toBe('A-1');
    expect(valueAtPath(payload, 'kyc')).toEqual(payload.kyc);
    expect(valueAtPath(payload, 'kyc.none')).toBeNull();
  });

  it('answers undefined for an absent member, a bad index, a path through a scalar and inherited properties', () => {
    expect(valueAtPath(payload, 'kyc.city')).toBeUndefined();
    expect(valueAtPath(payload, 'kyc.lines.01')).toBeUndefined();
    expect(valueAtPath(payload, 'kyc.country.length')).toBeUndefined();
    expect(valueAtPath(payload, 'kyc.constructor')).toBeUndefined();
    // A dot always separates members: a member whose name holds one cannot be named.
    expect(valueAtPath(payload, 'a.b')).toBeUndefined();
  });
});

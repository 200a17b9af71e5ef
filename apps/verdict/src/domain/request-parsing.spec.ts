import {
  MAX_NESTING,
  mergeScope,
  parseCheckBody,
  parseContext,
  parseResolveBody,
  parseVerdictTtl,
  scopeFromContext,
  tooDeep,
  validateScope,
} from './request-parsing';

const schema = new Map<string, { allowed_values?: Array<string | number | boolean>; type?: 'string' | 'number' | 'boolean' }>([
  ['region', { allowed_values: ['eu', 'us'] }],
  ['tier', { type: 'number' }],
  ['team', {}],
]);

describe(parseVerdictTtl.name, () => {
  it('takes whole seconds from 1 to 3600 and nothing else', () => {
    expect([parseVerdictTtl(undefined), parseVerdictTtl('1'), parseVerdictTtl(' 3600 ')]).toEqual([undefined, 1, 3600]);
    for (const bad of ['0', '3601', '-1', '1.5', '', 'ten', '1e3', '9999999']) {
      expect(() => parseVerdictTtl(bad)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_verdict_ttl' }));
    }
  });
});

describe(validateScope.name, () => {
  it('accepts fields of the scope_schema with allowed values and types', () => {
    expect(validateScope({ region: 'eu', tier: 2, team: 'x' }, schema, 'invalid_scope_field')).toEqual({
      region: 'eu',
      tier: 2,
      team: 'x',
    });
  });

  it('refuses an unknown field with the code of the operation', () => {
    expect(() => validateScope({ planet: 'mars' }, schema, 'invalid_scope_field')).toThrow(
      expect.objectContaining({ code: 'invalid_scope_field', details: expect.objectContaining({ field: 'planet' }) }),
    );
    expect(() => validateScope({ planet: 'mars' }, schema, 'unknown_scope_field')).toThrow(
      expect.objectContaining({ code: 'unknown_scope_field' }),
    );
  });

  it('refuses values outside allowed_values, of the wrong type, or not scalar', () => {
    for (const scope of [{ region: 'apac' }, { tier: '2' }, { team: { a: 1 } }, { team: null }, { team: [1] }]) {
      expect(() => validateScope(scope, schema, 'invalid_scope_field')).toThrow(expect.objectContaining({ code: 'invalid_scope_value' }));
    }
  });

  it('accepts any scalar field when the tenant has no scope_schema', () => {
    expect(validateScope({ anything: true }, null, 'invalid_scope_field')).toEqual({ anything: true });
  });
});

describe(parseContext.name, () => {
  it('accepts Facts, null being a value', () => {
    const context = {
      a: { value: null, source: 's' },
      b: { value: 1, source: 's', verification_status: 'verified', confidence: 1, as_of: '2026-01-01T00:00:00Z' },
    };
    expect(parseContext(context)).toEqual(context);
  });

  it.each([
    ['no value', { a: { source: 's' } }],
    ['no source', { a: { value: 1 } }],
    ['an empty source', { a: { value: 1, source: '' } }],
    ['a bare value', { a: 5 }],
    ['an unknown member', { a: { value: 1, source: 's', weight: 2 } }],
    ['a bad verification_status', { a: { value: 1, source: 's', verification_status: 'maybe' } }],
    ['a confidence above 1', { a: { value: 1, source: 's', confidence: 1.5 } }],
    ['a bad as_of', { a: { value: 1, source: 's', as_of: 'yesterday' } }],
    ['an as_of on a day the month lacks', { a: { value: 1, source: 's', as_of: '2026-02-30T10:00:00Z' } }],
    ['an as_of with a space for its T', { a: { value: 1, source: 's', as_of: '2026-03-01 10:00:00Z' } }],
    ['a payload_path without a ledger citation', { a: { value: 1, source: 's', payload_path: 'kyc.country' } }],
    ['a payload_path that is not a string', { a: { value: 1, source: 'ledger:fct-000000000000000000000001', payload_path: 3 } }],
    [
      'a payload_path with an empty segment',
      { a: { value: 1, source: 'ledger:fct-000000000000000000000001', payload_path: 'kyc..country' } },
    ],
  ])('refuses a Fact with %s (invalid_context_shape naming the field)', (_why, context) => {
    expect(() => parseContext(context)).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_context_shape', details: { field: 'a' } }),
    );
  });

  it('accepts a ledger citation with a payload_path (its proof is checked later)', () => {
    const context = { a: { value: 'DE', source: 'ledger:fct-000000000000000000000001', payload_path: 'kyc.lines.0.country' } };
    expect(parseContext(context)).toEqual(context);
  });

  it('refuses a context that is not a map', () => {
    for (const context of [[], 'x', null])
      expect(() => parseContext(context)).toThrow(expect.objectContaining({ code: 'invalid_context_shape' }));
  });
});

describe(scopeFromContext.name, () => {
  const fact = (value: unknown) => ({ value, source: 's' });

  it('takes scope.<field> Facts and bare scope_schema field names', () => {
    expect(scopeFromContext({ 'scope.region': fact('eu'), tier: fact(3), 'transfer.amount': fact(5) }, schema)).toEqual({
      region: 'eu',
      tier: 3,
    });
  });

  it('refuses a scope.<field> the scope_schema lacks, and values it refuses', () => {
    expect(() => scopeFromContext({ 'scope.planet': fact('mars') }, schema)).toThrow(
      expect.objectContaining({ code: 'unknown_scope_field' }),
    );
    expect(() => scopeFromContext({ 'scope.region': fact('apac') }, schema)).toThrow(
      expect.objectContaining({ code: 'invalid_scope_value' }),
    );
  });
});

describe(mergeScope.name, () => {
  it('widens, and refuses a field that would change value', () => {
    expect(mergeScope({ region: 'eu' }, { team: 'a', region: 'eu' }, 'c')).toEqual({ region: 'eu', team: 'a' });
    expect(() => mergeScope({ region: 'eu' }, { region: 'us' }, 'scope_conflict')).toThrow(
      expect.objectContaining({ status: 409, code: 'scope_conflict' }),
    );
  });
});

describe(parseResolveBody.name, () => {
  it('tells the variants apart by their fields', () => {
    expect(parseResolveBody({ action: 'a', resource: 'r', scope: {}, context: {} })).toMatchObject({ variant: 'detailed', action: 'a' });
    expect(parseResolveBody({ action_type: 'a', context: {}, correlation: { agent_run_id: 'x' } })).toMatchObject({
      variant: 'overview',
      action_type: 'a',
      correlation: { agent_run_id: 'x' },
    });
  });

  it('refuses fields of the other variant, a missing context, and bad correlation ids', () => {
    for (const body of [
      { action_type: 'a', action: 'a', context: {} },
      { action: 'a', resource: 'r', scope: {} },
      { action: 'a', resource: 'r', context: {} },
      { action_type: 'a', context: {}, correlation: { trace: 'x' } },
      { action_type: '', context: {} },
      'text',
    ]) {
      expect(() => parseResolveBody(body)).toThrow(expect.objectContaining({ status: 400, code: 'validation_failed' }));
    }
  });

  it('reports a Fact without value as invalid_context_shape', () => {
    expect(() => parseResolveBody({ action_type: 'a', context: { f: { source: 's' } } })).toThrow(
      expect.objectContaining({ code: 'invalid_context_shape' }),
    );
  });
  it('refuses a detailed scope value that is not a scalar with validation_failed, as the OpenAPI shape does', () => {
    for (const value of [{ nested: true }, [1], null]) {
      expect(() => parseResolveBody({ action: 'a', resource: 'r', scope: { region: value }, context: {} })).toThrow(
        expect.objectContaining({
          status: 400,
          code: 'validation_failed',
          details: { fields: [{ field: 'scope.region', message: 'must be a string, number or boolean' }] },
        }),
      );
    }
  });
});

describe(parseCheckBody.name, () => {
  it('keeps the fields of the OpenAPI CheckRequest, parsing the context', () => {
    const body = {
      action: 'a.b',
      resource: 'r',
      scope: { region: 'eu' },
      parameters: { n: 1 },
      on_behalf_of: 'hum-1',
      context: { f: { value: 1, source: 'kyc' } },
    };
    expect(parseCheckBody(body)).toEqual(body);
    expect(parseCheckBody({ action: 'a', resource: 'r', scope: {} })).toEqual({ action: 'a', resource: 'r', scope: {} });
  });

  it('refuses what the OpenAPI shape refuses with validation_failed', () => {
    for (const body of [
      'text',
      [],
      null,
      { resource: 'r', scope: {} },
      { action: 'a', scope: {} },
      { action: 'a', resource: 'r' },
      { action: 'a', resource: 'r', scope: [] },
      { action: 'a', resource: 'r', scope: {}, parameters: 'p' },
      { action: 'a', resource: 'r', scope: {}, on_behalf_of: '' },
      { action: 'a'.repeat(501), resource: 'r', scope: {} },
      { action: 'a', resource: 'r'.repeat(2001), scope: {} },
      { action: 'a', resource: 'r', scope: {}, surprise: true },
    ]) {
      expect(() => parseCheckBody(body)).toThrow(expect.objectContaining({ status: 400, code: 'validation_failed' }));
    }
  });

  it('takes `explain` as a boolean only (docs/verdicts.md "Explanations")', () => {
    const op = { action: 'a', resource: 'r', scope: {} };
    expect(parseCheckBody({ ...op, explain: true })).toEqual({ ...op, explain: true });
    expect(parseCheckBody({ ...op, explain: false })).toEqual(op);
    expect(parseResolveBody({ ...op, context: {}, explain: true })).toMatchObject({ variant: 'detailed', explain: true });
    expect(parseResolveBody({ action_type: 'a', context: {} })).toMatchObject({ variant: 'overview', explain: false });
    for (const explain of ['true', 1, null, {}]) {
      const refused = expect.objectContaining({
        status: 400,
        code: 'validation_failed',
        details: { fields: [{ field: 'explain', message: 'must be a boolean' }] },
      });
      expect(() => parseCheckBody({ ...op, explain })).toThrow(refused);
      expect(() => parseResolveBody({ action_type: 'a', context: {}, explain })).toThrow(refused);
    }
  });

  it('refuses a parameter member name holding a dot, at any depth, naming its path (docs/verdicts.md "Parameters and context")', () => {
    const op = { action: 'a', resource: 'r', scope: {} };
    const refused = (field: string) =>
      expect.objectContaining({
        status: 400,
        code: 'validation_failed',
        message: `${field}: rules address parameters by dot paths, a member name may not contain one`,
        details: { fields: [{ field, message: 'a member name may not contain a dot' }] },
      });
    expect(() => parseCheckBody({ ...op, parameters: { 'transfer.amount': 5000 } })).toThrow(refused('parameters["transfer.amount"]'));
    expect(() => parseCheckBody({ ...op, parameters: { transfer: { amount: 1 }, 'transfer.amount': 5000 } })).toThrow(
      refused('parameters["transfer.amount"]'),
    );
    expect(() => parseCheckBody({ ...op, parameters: { lines: [{ 'unit.price': 1 }] } })).toThrow(
      refused('parameters.lines[0]["unit.price"]'),
    );
    // Dots in values, and nested members without one, are what parameters hold every day.
    const fine = { ...op, parameters: { transfer: { amount: 1, note: 'v1.2' }, 'x-y': ['a.b'] } };
    expect(parseCheckBody(fine)).toEqual(fine);
  });

  it('refuses a member named $commit in parameters or a Fact value: only the gateway makes commitments (docs/verdicts.md "Sensitive fields")', () => {
    const op = { action: 'a', resource: 'r', scope: {} };
    const forged = { $commit: 'hmac-sha256:00' };
    const reserved = (field: string) =>
      expect.objectContaining({
        status: 400,
        code: 'validation_failed',
        details: { fields: [{ field, message: expect.stringMatching(/reserved/) }] },
      });
    expect(() => parseCheckBody({ ...op, parameters: { iban: forged } })).toThrow(reserved('parameters.iban["$commit"]'));
    expect(() => parseCheckBody({ ...op, parameters: { lines: [{ note: { $commit: 'anything', more: 1 } }] } })).toThrow(
      reserved('parameters.lines[0].note["$commit"]'),
    );
    for (const value of [forged, { order: forged }, [forged]]) {
      const context = { iban: { value, source: 'user' } };
      expect(() => parseCheckBody({ ...op, context })).toThrow(
        expect.objectContaining({ code: 'invalid_context_shape', details: { field: 'iban' }, message: expect.stringMatching(/reserved/) }),
      );
      expect(() => parseResolveBody({ action_type: 'a', context })).toThrow(expect.objectContaining({ code: 'invalid_context_shape' }));
    }
    // The text alone, and members named otherwise, are plain values.
    const fine = { ...op, parameters: { note: 'hmac-sha256:00', x: { commit: 'hmac-sha256:00' } } };
    expect(parseCheckBody(fine)).toEqual(fine);
  });

  it('refuses a member named __proto__ wherever a request may carry one: copies by assignment would lose it or inherit its value (docs/verdicts.md "Parameters and context")', () => {
    // JSON.parse, as the body reader does, makes __proto__ an own member; an object literal would set the prototype.
    const body = (json: string) => JSON.parse(json) as Record<string, unknown>;
    const op = '"action":"a","resource":"r"';
    const prototypeMember = expect.stringMatching(/may not be named __proto__/);
    const cases: Array<[string, object]> = [
      [
        `{${op},"scope":{},"context":{"__proto__":{"value":{"value":1,"source":"agent"},"source":"agent"}}}`,
        { code: 'invalid_context_shape', details: { field: '__proto__' } },
      ],
      [
        `{${op},"scope":{},"context":{"amount":{"value":{"__proto__":{"x":1}},"source":"agent"}}}`,
        { code: 'invalid_context_shape', details: { field: 'amount' } },
      ],
      [
        `{${op},"scope":{},"parameters":{"__proto__":{"value":1}}}`,
        { code: 'validation_failed', details: { fields: [{ field: 'parameters.__proto__', message: prototypeMember }] } },
      ],
      [
        `{${op},"scope":{},"parameters":{"lines":[{"__proto__":{"value":1}}]}}`,
        { code: 'validation_failed', details: { fields: [{ field: 'parameters.lines[0].__proto__', message: prototypeMember }] } },
      ],
    ];
    for (const [json, refusal] of cases) {
      expect(() => parseCheckBody(body(json))).toThrow(expect.objectContaining({ status: 400, message: prototypeMember, ...refusal }));
    }
    expect(() => parseResolveBody(body(`{"action_type":"a","context":{"__proto__":{"value":1,"source":"agent"}}}`))).toThrow(
      expect.objectContaining({ code: 'invalid_context_shape', details: { field: '__proto__' } }),
    );
    expect(() => parseResolveBody(body(`{${op},"scope":{"__proto__":"eu"},"context":{}}`))).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { fields: [{ field: 'scope.__proto__', message: prototypeMember }] } }),
    );
    for (const tenantSchema of [null, schema]) {
      expect(() => validateScope(body('{"region":"eu","__proto__":"us"}'), tenantSchema, 'invalid_scope_field')).toThrow(
        expect.objectContaining({
          code: 'validation_failed',
          details: { fields: [{ field: 'scope.__proto__', message: prototypeMember }] },
        }),
      );
    }
    expect(() => scopeFromContext(body('{"scope.__proto__":{"value":"eu","source":"agent"}}') as never, null)).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: { fields: [{ field: 'scope.__proto__', message: prototypeMember }] } }),
    );
    // Names that only resemble it are members like any other.
    const fine = body(`{${op},"scope":{},"parameters":{"proto":1,"constructor":{"prototype":2}}}`);
    expect(parseCheckBody(fine)).toEqual(fine);
  });

  it('names a bad Fact with invalid_context_shape', () => {
    expect(() => parseCheckBody({ action: 'a', resource: 'r', scope: {}, context: { 'a.b': { value: 1 } } })).toThrow(
      expect.objectContaining({ code: 'invalid_context_shape', details: { field: 'a.b' } }),
    );
  });
});

describe('nesting', () => {
  const nested = (levels: number): unknown => (levels === 0 ? 1 : { a: nested(levels - 1) });
  const body = (parameters: unknown) => ({ action: 'a', resource: 'r', scope: {}, parameters });

  it('accepts parameters and Fact values nested up to MAX_NESTING levels', () => {
    expect(() => parseCheckBody(body(nested(MAX_NESTING)))).not.toThrow();
    expect(() => parseContext({ f: { value: nested(MAX_NESTING), source: 's' } })).not.toThrow();
  });

  it('refuses deeper ones with 400, naming the field', () => {
    expect(() => parseCheckBody(body(nested(MAX_NESTING + 1)))).toThrow(
      expect.objectContaining({ status: 400, code: 'validation_failed' }),
    );
    expect(() => parseContext({ f: { value: nested(MAX_NESTING + 1), source: 's' } })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_context_shape', details: { field: 'f' } }),
    );
    expect(tooDeep(nested(5000), 'parameters')).toMatch(/^parameters\.a\.a/);
  });
});

import { keyPathIsSensitive, sensitivePathProblem, sensitivePolicy, sensitiveSettingsProblem } from './settings';

describe(sensitiveSettingsProblem.name, () => {
  const sut = sensitiveSettingsProblem;

  it('accepts parameters and context paths and a subject field', () => {
    expect(
      sut({
        sensitive_fields: ['parameters.card.number', 'context.customer.email', 'parameters.customer_id'],
        data_subject_field: 'parameters.customer_id',
      }),
    ).toBeNull();
    expect(sut({})).toBeNull();
  });

  it.each([
    ['card', 'must start with parameters. or context.'],
    ['parameters.', 'has an empty segment'],
    ['parameters.a..b', 'has an empty segment'],
    ['context.__proto__', 'names __proto__'],
    ['parameters.' + 'x'.repeat(300), 'is longer than 256 characters'],
  ])('names the path %s and what is wrong with it', (path, problem) => {
    expect(sut({ sensitive_fields: ['parameters.ok', path] })).toEqual({
      at: 'sensitive_fields.1',
      problem: expect.stringContaining(problem),
    });
  });

  it('refuses a path listed twice, more than 50 paths, a non-array and a bad subject field', () => {
    expect(sut({ sensitive_fields: ['parameters.a', 'parameters.a'] })).toEqual({
      at: 'sensitive_fields.1',
      problem: expect.stringContaining('listed twice'),
    });
    expect(sut({ sensitive_fields: Array.from({ length: 51 }, (_, i) => `parameters.f${i}`) })?.at).toBe('sensitive_fields');
    expect(sut({ sensitive_fields: 'parameters.a' })?.at).toBe('sensitive_fields');
    expect(sut({ data_subject_field: 'customer_id' })?.at).toBe('data_subject_field');
    expect(sut({ data_subject_field: 7 })?.problem).toBe('must be a string');
  });

  it('refuses a subject field that is not one of the sensitive fields (it would stay in the clear)', () => {
    expect(sut({ sensitive_fields: ['parameters.card.number'], data_subject_field: 'parameters.customer_id' })).toEqual({
      at: 'data_subject_field',
      problem: '"parameters.customer_id" must be one of sensitive_fields',
    });
    expect(sut({ data_subject_field: 'parameters.customer_id' })?.at).toBe('data_subject_field');
    // parameters.x and context.x name one field, but the setting lists the path it reads: the same path is asked.
    expect(sut({ sensitive_fields: ['context.customer_id'], data_subject_field: 'parameters.customer_id' })?.at).toBe('data_subject_field');
    expect(sut({ sensitive_fields: ['parameters.customer_id'], data_subject_field: 'parameters.customer_id' })).toBeNull();
  });
});

describe(sensitivePolicy.name, () => {
  it('is null without sensitive fields, and names each field once whatever its prefix', () => {
    expect(sensitivePolicy({})).toBeNull();
    expect(sensitivePolicy({ sensitive_fields: [] })).toBeNull();
    const sut = sensitivePolicy({
      sensitive_fields: ['parameters.card', 'context.card', 'context.a.b', 'parameters.c'],
      data_subject_field: 'parameters.c',
    })!;
    expect(sut.fields.map((f) => f.field)).toEqual(['card', 'a.b', 'c']);
    expect(sut.subject).toEqual({ path: 'parameters.c', field: 'c', segments: ['c'] });
  });

  it('protects the subject field even when settings stored before the registry required it leave it out', () => {
    const alone = sensitivePolicy({ data_subject_field: 'parameters.c' })!;
    expect(alone.fields.map((f) => f.path)).toEqual(['parameters.c']);
    expect(alone.subject?.field).toBe('c');
    const beside = sensitivePolicy({ sensitive_fields: ['parameters.card'], data_subject_field: 'context.c' })!;
    expect(beside.fields.map((f) => f.field)).toEqual(['card', 'c']);
  });

  it('throws on malformed settings rather than protect less than asked', () => {
    expect(() => sensitivePolicy({ sensitive_fields: ['card'] })).toThrow(/sensitive_fields\.0/);
  });
});

describe(keyPathIsSensitive.name, () => {
  const policy = sensitivePolicy({ sensitive_fields: ['parameters.card.number'] })!;

  it('marks a key path that is, holds or lies under a sensitive field', () => {
    expect(keyPathIsSensitive(policy, 'parameters.card.number')).toBe(true);
    expect(keyPathIsSensitive(policy, 'parameters.card')).toBe(true);
    expect(keyPathIsSensitive(policy, 'parameters.card.number.x')).toBe(true);
    expect(keyPathIsSensitive(policy, 'parameters.cardholder')).toBe(false);
    expect(keyPathIsSensitive(policy, 'principal')).toBe(false);
  });
});

describe(sensitivePathProblem.name, () => {
  it('refuses what is not a string', () => {
    expect(sensitivePathProblem(1)).toBe('must be a string');
  });
});

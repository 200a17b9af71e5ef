import { MAX_SUBJECT_LENGTH, replaceSensitive, restoreSensitive, subjectName, subjectOf } from './locate';
import { sensitivePolicy } from './settings';

const mark = (location: string) => ({ at: location });

describe(replaceSensitive.name, () => {
  const policy = sensitivePolicy({ sensitive_fields: ['parameters.card.number', 'context.email', 'parameters.items.0'] })!;

  it('replaces a parameter at its path and leaves the objects handed in unchanged', () => {
    const parameters = { card: { number: '4111', brand: 'visa' }, amount: 5, items: ['a', 'b'] };
    const before = structuredClone(parameters);
    const sut = replaceSensitive(policy, parameters, {}, mark);
    expect(sut.parameters).toEqual({
      card: { number: { at: 'parameters.card.number' }, brand: 'visa' },
      amount: 5,
      items: [{ at: 'parameters.items.0' }, 'b'],
    });
    expect(parameters).toEqual(before);
    expect([...sut.found]).toEqual([
      ['parameters.card.number', '4111'],
      ['parameters.items.0', 'a'],
    ]);
  });

  it('replaces the value of a Fact at the field, under it, and inside a Fact at a prefix, keeping its provenance', () => {
    const context = {
      email: { value: 'a@b.c', source: 'crm' },
      'card.number.last4': { value: '1111' },
      card: { value: { number: '4111', brand: 'visa' }, source: 'vault' },
      amount: { value: 5 },
    };
    const sut = replaceSensitive(policy, {}, context, mark);
    expect(sut.context).toEqual({
      email: { value: { at: 'context.email' }, source: 'crm' },
      'card.number.last4': { value: { at: 'context.card.number.last4' } },
      card: { value: { number: { at: 'context.card.value.number' }, brand: 'visa' }, source: 'vault' },
      amount: { value: 5 },
    });
    expect(context.email.value).toBe('a@b.c');
  });

  it('hands back the same objects when nothing is sensitive', () => {
    const parameters = { amount: 5 };
    const context = { amount: { value: 5 } };
    const sut = replaceSensitive(policy, parameters, context, mark);
    expect(sut.parameters).toBe(parameters);
    expect(sut.context).toBe(context);
    expect(sut.found.size).toBe(0);
  });

  it('does not follow inherited members or non-index array segments', () => {
    const p = sensitivePolicy({ sensitive_fields: ['parameters.items.x', 'parameters.toString'] })!;
    const sut = replaceSensitive(p, { items: ['a'] }, {}, mark);
    expect(sut.found.size).toBe(0);
  });
});

describe(subjectOf.name, () => {
  const policy = sensitivePolicy({ sensitive_fields: ['parameters.card'], data_subject_field: 'parameters.customer.id' })!;

  it('reads the subject as a rule reads it: the Fact at the path first, then the parameters', () => {
    expect(subjectOf(policy, { customer: { id: 'c-1' } }, {})).toBe('c-1');
    expect(subjectOf(policy, { customer: { id: 'c-1' } }, { 'customer.id': { value: 'c-2' } })).toBe('c-2');
    expect(subjectOf(policy, { customer: { id: 42 } }, {})).toBe('42');
  });

  it('is null when the subject is absent, empty, longer than an erasure can name, or not a string or number', () => {
    expect(subjectOf(policy, { customer: { id: 'x'.repeat(MAX_SUBJECT_LENGTH) } }, {})).toBe('x'.repeat(MAX_SUBJECT_LENGTH));
    expect(subjectOf(policy, { customer: { id: 'x'.repeat(MAX_SUBJECT_LENGTH + 1) } }, {})).toBeNull();
    expect(subjectOf(policy, { customer: { id: Number.NaN } }, {})).toBeNull();
    expect(subjectOf(policy, {}, {})).toBeNull();
    expect(subjectOf(policy, { customer: { id: '' } }, {})).toBeNull();
    expect(subjectOf(policy, { customer: { id: { x: 1 } } }, {})).toBeNull();
    expect(subjectOf(sensitivePolicy({ sensitive_fields: ['parameters.card'] })!, { customer: { id: 'c' } }, {})).toBeNull();
  });
});

describe(subjectName.name, () => {
  it('names a number by its JSON text, so that 42 and "42" are one subject', () => {
    expect(subjectName(42)).toBe('42');
    expect(subjectName('42')).toBe('42');
    expect(subjectName(1e21)).toBe('1e+21');
    expect(subjectName(-0)).toBe('0');
    expect(subjectName('cust-1')).toBe('cust-1');
  });

  it('is null for what an erasure could not name', () => {
    for (const v of ['', 'x'.repeat(MAX_SUBJECT_LENGTH + 1), Infinity, true, null, undefined, ['a'], { id: 1 }])
      expect(subjectName(v)).toBeNull();
  });
});

describe(restoreSensitive.name, () => {
  const policy = sensitivePolicy({ sensitive_fields: ['parameters.card.number', 'context.email', 'parameters.items.0'] })!;
  const parameters = { card: { number: '4111', brand: 'visa' }, items: ['a', 'b'] };
  const context = {
    email: { value: 'a@b.c', source: 'crm' },
    card: { value: { number: '4111' }, source: 'vault' },
  };
  const replaced = replaceSensitive(policy, parameters, context, (at) => ({ $commit: at }));

  it('puts every value back where replaceSensitive found it', () => {
    expect(restoreSensitive(replaced.parameters, replaced.context, replaced.found)).toEqual({ parameters, context });
  });

  it('removes an erased value, so that a rule finds it absent (an array element reads null)', () => {
    const erased = new Map([...replaced.found.keys()].map((k) => [k, undefined]));
    expect(restoreSensitive(replaced.parameters, replaced.context, erased)).toEqual({
      parameters: { card: { brand: 'visa' }, items: [null, 'b'] },
      context: { card: { value: {}, source: 'vault' } },
    });
  });
});

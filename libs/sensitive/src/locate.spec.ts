import { MAX_SUBJECT_LENGTH, replaceSensitive, restoreSensitive, subjectName, subjectOf } from './locate';
import { sensitivePolicy } from './settings';
import fc from 'fast-check';

/** The value at a path through own members, or undefined (a marked value ends the walk: nothing readable under it). */
function readAt(root: unknown, segments: readonly string[]): unknown {
  let cur = root;
  for (const seg of segments) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

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

  it('replaces every sensitive field inside a Fact keyed by their common prefix, not only the first', () => {
    const two = sensitivePolicy({ sensitive_fields: ['parameters.card.number', 'parameters.card.cvv', 'context.card.holder.name'] })!;
    const context = { card: { value: { number: '4111', cvv: '987', holder: { name: 'Ann' }, brand: 'visa' }, source: 'agent' } };
    const sut = replaceSensitive(two, {}, context, mark);
    expect(sut.context.card.value).toEqual({
      number: { at: 'context.card.value.number' },
      cvv: { at: 'context.card.value.cvv' },
      holder: { name: { at: 'context.card.value.holder.name' } },
      brand: 'visa',
    });
    expect([...sut.found.keys()]).toEqual(['context.card.value.number', 'context.card.value.cvv', 'context.card.value.holder.name']);
  });

  it('leaves no sensitive value where a rule could read it, whatever the fields and the request (property)', () => {
    const segment = fc.constantFrom('a', 'b', 'c', '0');
    const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
    const tree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.constant('secret'),
        fc.dictionary(segment, tie('node'), { maxKeys: 3 }),
        fc.array(tie('node'), { maxLength: 2 }),
      ),
    })).node;
    fc.assert(
      fc.property(
        fc.uniqueArray(path, { minLength: 1, maxLength: 4 }),
        fc.dictionary(segment, tree, { maxKeys: 3 }),
        fc.dictionary(
          path,
          tree.map((value) => ({ value })),
          { maxKeys: 4 },
        ),
        (fields, parameters, context) => {
          const p = sensitivePolicy({ sensitive_fields: fields.map((f) => `parameters.${f}`) })!;
          const sut = replaceSensitive(p, parameters as Record<string, unknown>, context, mark);
          const marked = (v: unknown) => v === undefined || (typeof v === 'object' && v !== null && 'at' in v);
          for (const field of fields) {
            // As a rule reads it: the parameters at the path, a Fact keyed by the field or under it, a Fact keyed by a prefix.
            expect(marked(readAt(sut.parameters, field.split('.')))).toBe(true);
            for (const [key, fact] of Object.entries(sut.context)) {
              if (key === field || key.startsWith(`${field}.`)) expect(marked(fact.value)).toBe(true);
              else if (field.startsWith(`${key}.`)) expect(marked(readAt(fact.value, field.slice(key.length + 1).split('.')))).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
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

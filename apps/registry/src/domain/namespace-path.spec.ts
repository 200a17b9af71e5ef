import { parseNamespacePath } from './namespace-path';

describe(parseNamespacePath.name, () => {
  it('accepts a root and two levels below it', () => {
    expect(parseNamespacePath('payments')).toEqual({ ok: true, segments: ['payments'], parent: null });
    expect(parseNamespacePath('payments/eu/sepa')).toEqual({ ok: true, segments: ['payments', 'eu', 'sepa'], parent: 'payments/eu' });
  });

  it('refuses a third level, empty segments and odd characters', () => {
    expect(parseNamespacePath('a/b/c/d')).toMatchObject({ ok: false, problem: expect.stringMatching(/too deep/) });
    expect(parseNamespacePath('a//b').ok).toBe(false);
    expect(parseNamespacePath('/a').ok).toBe(false);
    expect(parseNamespacePath('A').ok).toBe(false);
    expect(parseNamespacePath('a b').ok).toBe(false);
  });
});

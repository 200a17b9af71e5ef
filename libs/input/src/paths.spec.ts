import { bracketPath, dottedPath } from './paths';

describe(bracketPath.name, () => {
  it('joins names with dots, positions in brackets, other names JSON-quoted', () => {
    expect(bracketPath(['parameters', 'items', 2, 'note'])).toBe('parameters.items[2].note');
    expect(bracketPath(['context', 'beneficiary.country', 'value'])).toBe('context["beneficiary.country"].value');
    expect(bracketPath(['scope', 'k\u0000'])).toBe('scope["k\\u0000"]');
    expect(bracketPath([])).toBe('');
  });

  it('takes a root, names with dashes as plain, and cuts long names', () => {
    expect(bracketPath(['a-b', 0], { root: 'body', dashes: true })).toBe('body.a-b[0]');
    expect(bracketPath(['x'.repeat(70)], { root: 'body', dashes: true, maxName: 64 })).toBe(`body["${'x'.repeat(64)}…"]`);
  });
});

describe(dottedPath.name, () => {
  it('joins every step with dots', () => {
    expect(dottedPath(['lines', 0, 'sku'], 'custom_payload')).toBe('custom_payload.lines.0.sku');
    expect(dottedPath([])).toBe('');
  });
});

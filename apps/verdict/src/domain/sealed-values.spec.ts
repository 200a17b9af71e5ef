import { parseSealedValues, pathsOf } from './sealed-values';

describe(parseSealedValues.name, () => {
  const good = { subject: 'hmac-sha256:aa', paths: ['parameters.card'], values: 'v1.x.y.z', key: 'ab' };

  it('reads the stored shape, with or without the key id, and a one-off key', () => {
    expect(parseSealedValues(good)).toEqual(good);
    const { key: _key, ...old } = good;
    expect(parseSealedValues(old)).toEqual(old);
    expect(parseSealedValues({ subject: null, paths: ['context.email'], values: null })).toEqual({
      subject: null,
      paths: ['context.email'],
      values: null,
    });
  });

  it('is null for any other shape (an altered row), never a throw', () => {
    for (const raw of [
      'junk',
      42,
      ['a'],
      {},
      { ...good, paths: 'parameters.card' },
      { ...good, paths: [1] },
      { ...good, subject: 7 },
      { ...good, subject: '' },
      { ...good, values: {} },
      { ...good, key: 1 },
    ])
      expect(parseSealedValues(raw)).toBeNull();
  });
});

describe(pathsOf.name, () => {
  it('keeps what a malformed row still names as locations', () => {
    expect(pathsOf({ paths: ['parameters.card', 3] })).toEqual(['parameters.card']);
    expect(pathsOf('junk')).toEqual([]);
    expect(pathsOf(null)).toEqual([]);
  });
});

import { isEmailAddress } from './email-address';

describe('isEmailAddress', () => {
  it.each(['ada@example.com', 'first.last+tag@mail.example.co.uk', "o'brien@x-y.example", 'a@b.io'])('accepts %s', (v) => {
    expect(isEmailAddress(v)).toBe(true);
  });

  it.each([
    '',
    'ada',
    'ada@',
    '@example.com',
    'ada@example',
    'a@b@example.com',
    'ada @example.com',
    'ada@example.com\r\nBcc: eve@evil.example',
    'Ada <ada@example.com>',
    'ada@example.com, eve@evil.example',
    '"ada"@example.com',
    '.ada@example.com',
    'a..da@example.com',
    'ada@-example.com',
    'ada@exa_mple.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(70)}.com`,
  ])('refuses %j', (v) => {
    expect(isEmailAddress(v)).toBe(false);
  });
});

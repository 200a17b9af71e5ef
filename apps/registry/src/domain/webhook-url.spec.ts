import { isForbiddenAddress, parseWebhookUrl } from './webhook-url';

describe(parseWebhookUrl.name, () => {
  it('accepts http and https URLs and strips IPv6 brackets from the host', () => {
    expect(parseWebhookUrl('https://hooks.example.com/x?y=1')).toMatchObject({ ok: true, host: 'hooks.example.com' });
    expect(parseWebhookUrl('http://[2606:4700::1]:8080/')).toMatchObject({ ok: true, host: '2606:4700::1' });
  });

  it.each([
    ['ftp://example.com/', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['https://user:pw@example.com/', 'credentials'],
    ['not a url', 'not a valid'],
    ['', 'non-empty'],
    [`https://example.com/${'a'.repeat(2100)}`, 'at most'],
  ])('refuses %s', (raw, problem) => {
    const sut = parseWebhookUrl(raw);
    expect(sut.ok).toBe(false);
    expect(sut.ok ? '' : sut.problem).toContain(problem);
  });
});

describe(isForbiddenAddress.name, () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    'example.com',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

import { classifyAddress, describeAddressClass, isForbiddenAddress, parseWebhookUrl } from './webhook-url';

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

describe(classifyAddress.name, () => {
  // One row per range the guard must refuse (docs/webhooks.md "Subscriptions"): [address, range].
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fc12:3456::1', 'uniqueLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b::808:808', 'rfc6052'],
    ['64:ff9b:1::1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['2001::1', 'teredo'],
    ['100::1', 'discard'],
    ['4000::1', 'unallocated'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['example.com', 'notAnAddress'],
    ['0x7f.1', 'notAnAddress'],
    ['2130706433', 'notAnAddress'],
  ])('refuses %s (%s)', (address, range) => {
    const sut = classifyAddress(address);
    expect(sut).toMatchObject({ range, allowed: false });
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0.0.0.0', '::ffff:8.8.8.8'])(
    'refuses the IPv4-mapped %s, whatever IPv4 address it carries',
    (address) => {
      expect(classifyAddress(address)).toEqual({ range: 'ipv4Mapped', allowed: false });
    },
  );

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
    'allows the public address %s',
    (address) => {
      expect(classifyAddress(address)).toEqual({ range: 'unicast', allowed: true });
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );
});

describe(describeAddressClass.name, () => {
  it('names the range in words, ipaddr.js ranges it has no words for by their name', () => {
    expect(describeAddressClass(classifyAddress('64:ff9b::7f00:1'))).toBe('NAT64 (64:ff9b::/96, RFC 6052)');
    expect(describeAddressClass(classifyAddress('::ffff:8.8.8.8'))).toBe('IPv4-mapped (::ffff:0:0/96; use the IPv4 address itself)');
    expect(describeAddressClass({ range: 'as112', allowed: false })).toBe('special-purpose (as112)');
  });
});

import { BlockList, isIP } from 'node:net';

/**
 * Webhook target URLs (docs/webhooks.md): http or https only, no credentials, and — unless
 * WEBHOOK_ALLOW_PRIVATE — never an address inside the deployment's own networks (SSRF). The
 * address check runs on every address the host resolves to, at subscription time and again at
 * each delivery (a DNS answer may change: rebinding), and the delivery connects to the address
 * that was checked.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type ParsedWebhookUrl = { ok: true; url: URL; host: string } | { ok: false; problem: string };

/** Syntax and scheme checks; `host` is the hostname without IPv6 brackets. */
export function parseWebhookUrl(raw: string): ParsedWebhookUrl {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, problem: 'url must be a non-empty string' };
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, problem: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'url is not a valid absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'url must use http or https' };
  if (url.username || url.password) return { ok: false, problem: 'url must not carry credentials (user:password@)' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) return { ok: false, problem: 'url has no host' };
  return { ok: true, url, host };
}

// Special-purpose ranges (IANA IPv4/IPv6 Special-Purpose Address Registries, RFC 6890): none of
// them is a public internet host a webhook could legitimately live on.
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network" (RFC 791)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space, carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback (RFC 1122)
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints (RFC 3927)
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24], // documentation (RFC 5737)
  ['192.88.99.0', 24], // 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation (RFC 5737)
  ['203.0.113.0', 24], // documentation (RFC 5737)
  ['224.0.0.0', 4], // multicast (RFC 5771)
  ['240.0.0.0', 4], // reserved, and the broadcast address (RFC 1112, RFC 919)
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], // unspecified (RFC 4291)
  ['::1', 128], // loopback (RFC 4291)
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation (RFC 8215)
  ['100::', 64], // discard-only (RFC 6666)
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['fc00::', 7], // unique local (RFC 4193)
  ['fe80::', 10], // link-local (RFC 4291)
  ['ff00::', 8], // multicast (RFC 4291)
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/**
 * True for an IP address a webhook must not reach unless private targets are allowed.
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`, `::ffff:7f00:1`) are judged by their IPv4 part.
 * Anything that is not an IP address at all is refused too.
 */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

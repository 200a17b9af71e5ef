import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Webhook target URLs (docs/webhooks.md "Subscriptions"): http or https only, no credentials, and —
 * unless WEBHOOK_ALLOW_PRIVATE — never an address inside the deployment's own networks (SSRF). The
 * address check runs on every address the host resolves to, at subscription time and again at
 * each delivery (a DNS answer may change: rebinding), and the delivery connects to the address
 * that was checked.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type ParsedWebhookUrl = { ok: true; url: URL; host: string } | { ok: false; problem: string };

/**
 * Syntax and scheme checks; `host` is the hostname without IPv6 brackets. The WHATWG URL parser
 * already rewrites every IPv4 spelling (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) and every
 * IPv6 one to the canonical address, so the host classified is the one a socket would reach.
 */
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

/** What the guard made of one address: the range it falls in, and whether a webhook may reach it. */
export interface AddressClass {
  /** ipaddr.js's range name (`unicast`, `loopback`, `private`, `rfc6052`, `6to4`, …) or one of ours (below). */
  range: string;
  /** Only `unicast` (a public host) is allowed; every other range, known or not, is refused. */
  allowed: boolean;
}

// ipaddr.js names a range for every special-purpose block it knows and answers `unicast` for the
// rest. Two IPv6 facts it does not encode: only 2000::/3 is allocated for global unicast (IANA),
// and ::/96 is the deprecated IPv4-compatible form (RFC 4291 section 2.5.5.1), which some stacks
// still route to the embedded IPv4 address. Anything outside 2000::/3 is refused.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE_V6 = ipaddr.parseCIDR('::/96');

/**
 * Classifies one IP address with ipaddr.js's range classes, failing closed: only a public unicast
 * address is allowed. The ranges that carry an IPv4 address inside an IPv6 one — IPv4-mapped
 * (`::ffff:0:0/96`), IPv4-compatible (`::/96`), NAT64 (`64:ff9b::/96`, RFC 6052), 6to4
 * (`2002::/16`), Teredo — are refused whatever they carry: the translation may happen inside the
 * deployment's network, and a public receiver is reached by its IPv4 address itself
 * (docs/adr/0018-webhook-destinations-and-bound-deliveries.md). A string that is not exactly an IP
 * address (`isIP`) is refused too.
 */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return { range: 'notAnAddress', allowed: false };
  const parsed = ipaddr.parse(family === 6 ? canonicalIPv6(address) : address);
  let range: string = parsed.range();
  if (parsed.kind() === 'ipv6' && range === 'unicast' && !parsed.match(GLOBAL_UNICAST_V6)) {
    range = parsed.match(IPV4_COMPATIBLE_V6) ? 'ipv4Compatible' : 'unallocated';
  }
  return { range, allowed: range === 'unicast' };
}

/**
 * The address in the WHATWG URL parser's canonical form (dotted tails as hex, zone dropped).
 * ipaddr.js reads `::a.b.c.d` as if it were `::ffff:a.b.c.d`; the canonical `::7f00:1` it reads right.
 * A zone (`fe80::1%eth0`) only ever follows a link-local or multicast address, both refused.
 */
function canonicalIPv6(address: string): string {
  const bare = address.split('%')[0];
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}

/** True for an address a webhook must not reach unless private targets are allowed (see classifyAddress). */
export function isForbiddenAddress(address: string): boolean {
  return !classifyAddress(address).allowed;
}

const RANGE_WORDS: Record<string, string> = {
  notAnAddress: 'not an IP address',
  unspecified: 'unspecified ("this host", 0.0.0.0/8 or ::)',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local (cloud metadata endpoints live here)',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT (100.64.0.0/10)',
  private: 'private (RFC 1918)',
  reserved: 'reserved or documentation',
  uniqueLocal: 'unique-local (fc00::/7)',
  deprecatedSiteLocal: 'site-local (fec0::/10)',
  rfc6052: 'NAT64 (64:ff9b::/96, RFC 6052)',
  ipv4Mapped: 'IPv4-mapped (::ffff:0:0/96; use the IPv4 address itself)',
  rfc6145: 'IPv4-translated (RFC 6145)',
  '6to4': '6to4 (2002::/16)',
  teredo: 'Teredo (2001::/32)',
  discard: 'discard-only (100::/64)',
  ipv4Compatible: 'IPv4-compatible (::/96, deprecated)',
  unallocated: 'outside the global unicast space 2000::/3',
};

/** Words for a refused class, for the 400 detail and the recorded attempt error. */
export function describeAddressClass(c: AddressClass): string {
  return RANGE_WORDS[c.range] ?? `special-purpose (${c.range})`;
}

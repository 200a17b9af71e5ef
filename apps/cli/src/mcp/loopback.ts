// Loopback addresses and names: where the proxy may speak plain http (its verdict gateway) and which
// Host and Origin values its Streamable HTTP server answers when bound to loopback.
import net from 'node:net';

/** A hostname (as URL.hostname gives it: `[::1]` bracketed) that names this machine's loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  // ::1 (also written in full) and IPv4-mapped 127.0.0.0/8 (URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1).
  return net.isIPv6(host) && (host === '::1' || /^(0+:){7}0*1$/.test(host) || /^::ffff:(127\.|7f[0-9a-f]{2}:)/.test(host));
}

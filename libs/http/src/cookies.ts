/**
 * One cookie's value from a Cookie header (RFC 6265 section 5.4: `name=value` pairs separated by `;`, a value
 * optionally in double quotes); undefined when absent or empty.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value || undefined;
  }
  return undefined;
}

/**
 * A principal's email address (docs/identity.md "Resources"): where approval notifications go. Checked
 * strictly rather than liberally (RFC 5321 allows more): an address is one line handed to an SMTP
 * client, so no whitespace, control character, angle bracket, comma, quote or second `@` may pass, and
 * the domain is dot-separated DNS labels. At most 254 characters (RFC 5321 section 4.5.3.1.3).
 */
export const MAX_EMAIL_LENGTH = 254;

const LOCAL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function isEmailAddress(value: string): boolean {
  if (typeof value !== 'string' || value.length > MAX_EMAIL_LENGTH) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || value.indexOf('@') !== at) return false;
  const local = value.slice(0, at);
  const labels = value.slice(at + 1).split('.');
  if (!LOCAL.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return labels.length >= 2 && labels.every((l) => LABEL.test(l));
}

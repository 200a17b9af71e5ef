import { secretsEqual } from '@arbiter/auth';

/** Methods that change nothing: the only ones a console request may send without the session's CSRF token. */
export const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Whether a browser request may act (docs/identity.md "Console sign-in"): every method but GET and HEAD carries the
 * session's CSRF token, and no request comes from another site: a browser's `Sec-Fetch-Site` must be `same-origin`
 * and its `Origin`, when sent, the registry's own. Answers the reason for a refusal (403), or null.
 */
export function csrfRefusal(r: {
  method: string;
  csrfHeader: string | undefined;
  expectedToken: string | null;
  secFetchSite: string | undefined;
  origin: string | undefined;
  ownOrigins: string[];
}): string | null {
  const crossSite = crossSiteRefusal(r);
  if (crossSite) return crossSite;
  if (SAFE_METHODS.has(r.method)) return null;
  if (!r.csrfHeader) return 'Missing X-CSRF-Token: every write needs the session’s csrf_token';
  if (!r.expectedToken || !secretsEqual(r.csrfHeader, r.expectedToken)) return 'Wrong X-CSRF-Token';
  return null;
}

/** The Origin / Sec-Fetch-Site half alone (also for the sign-in forms, which have no session yet). */
export function crossSiteRefusal(r: {
  method: string;
  secFetchSite: string | undefined;
  origin: string | undefined;
  ownOrigins: string[];
}): string | null {
  if (SAFE_METHODS.has(r.method)) return null;
  if (r.secFetchSite !== undefined && r.secFetchSite !== 'same-origin') return `Refused a ${r.secFetchSite} request (Sec-Fetch-Site)`;
  if (r.origin !== undefined && !r.ownOrigins.includes(r.origin)) return `Refused a request from another origin (${r.origin})`;
  return null;
}

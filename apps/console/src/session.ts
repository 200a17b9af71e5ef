// The signed-in person (docs/console.md "Signing in"): GET /console/api/session, kept for the page's lifetime.
import { get, post, setCsrfToken } from './api';

export interface SessionPrincipal {
  id: string;
  name: string;
  kind: string;
  roles: string[];
}

export interface Session {
  principal: SessionPrincipal;
  tenant_id: string;
  permissions: string[];
  csrf_token: string;
  expires_at: string;
  /** The verdict service's base as the forwarder reaches it (informational). */
  verdict_base?: string;
}

/** What the sign-in page needs from an unauthenticated answer: the OIDC provider's name when one is configured. */
export interface SignedOut {
  oidcProvider: string | null;
}

export type SessionState = { signedIn: true; session: Session } | { signedIn: false; signedOut: SignedOut; error: string | null };

/** Reads the 401 body of GET /console/api/session: `{detail, oidc?: {name} | true}`. Pure. */
export function signedOutFrom(body: unknown): SignedOut {
  const oidc = body && typeof body === 'object' ? (body as { oidc?: unknown }).oidc : undefined;
  if (oidc === true) return { oidcProvider: 'single sign-on' };
  if (oidc && typeof oidc === 'object' && typeof (oidc as { name?: unknown }).name === 'string' && (oidc as { name: string }).name.trim())
    return { oidcProvider: (oidc as { name: string }).name.trim() };
  return { oidcProvider: null };
}

export async function loadSession(): Promise<SessionState> {
  const answer = await get<Session>('/console/api/session');
  if (answer.ok && answer.data && answer.data.principal) {
    setCsrfToken(answer.data.csrf_token);
    return { signedIn: true, session: answer.data };
  }
  setCsrfToken(null);
  if (!answer.ok && answer.status === 401) return { signedIn: false, signedOut: signedOutFrom(answer.error.body), error: null };
  return {
    signedIn: false,
    signedOut: { oidcProvider: null },
    error: answer.ok ? 'The session answer was malformed' : answer.error.message,
  };
}

export async function signOut(): Promise<boolean> {
  const answer = await post<void>('/console/api/signout');
  setCsrfToken(null);
  return answer.ok || answer.status === 401;
}

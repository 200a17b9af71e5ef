// The sign-in page (docs/console.md "Signing in"): single sign-on when the registry has an OpenID provider
// configured, otherwise how to get a one-time link. A refused sign-in comes back here as ?error=<code>; only known
// codes are shown with their own wording, so a crafted address cannot put arbitrary text on this page.
import { ErrorNotice, PageHeading } from '../components/page';
import { safeNext } from '../router';
import type { SignedOut } from '../session';

/** The refusals the sign-in endpoints send back, worded for the person reading them. */
export const SIGN_IN_REFUSALS: Record<string, string> = {
  unknown_subject:
    'Your identity provider signed you in, but no Arbiter principal is bound to that account. Ask an administrator to set your oidc_issuer and oidc_subject.',
  principal_disabled: 'Your Arbiter principal is deactivated. Ask an administrator.',
  not_human: 'Only human principals can sign in to the console.',
  link_used: 'This sign-in link was already used. Ask for a new one.',
  link_expired: 'This sign-in link has expired (links are valid for 10 minutes). Ask for a new one.',
  link_invalid: 'This sign-in link is not valid. Ask for a new one.',
  oidc_failed: 'Single sign-on did not complete. Try again.',
  oidc_not_configured: 'Single sign-on is not configured on this server. Ask for a sign-in link.',
  session_ended: 'Your session ended. Sign in again.',
};

/** The message for a refusal code, or a generic one for a code this page does not know. Pure. */
export function refusalMessage(code: string | null): string | null {
  if (!code) return null;
  return Object.prototype.hasOwnProperty.call(SIGN_IN_REFUSALS, code)
    ? SIGN_IN_REFUSALS[code]
    : 'Sign-in did not succeed. Try again or ask for a sign-in link.';
}

export function SignInPage({ signedOut, error }: { signedOut: SignedOut; error: string | null }) {
  const params = new URLSearchParams(location.search);
  const refusal = refusalMessage(params.get('error'));
  const next = safeNext(params.get('next'));
  const oidcHref = `/console/auth/oidc${next ? `?next=${encodeURIComponent(next)}` : ''}`;
  return (
    <section class="signin">
      <PageHeading>Sign in to the Arbiter console</PageHeading>
      <ErrorNotice error={refusal} context="Sign-in refused" />
      <ErrorNotice error={error} context="The console could not reach the server" />
      {signedOut.oidcProvider ? (
        <p>
          <a class="button primary" href={oidcHref}>
            Sign in with {signedOut.oidcProvider}
          </a>
        </p>
      ) : null}
      <h2>{signedOut.oidcProvider ? 'Or with a sign-in link' : 'Sign in with a link'}</h2>
      <p>
        An administrator can give you a one-time sign-in link, valid for 10 minutes:{' '}
        <code>arbiter console link --principal &lt;your principal id&gt;</code> or{' '}
        <code>POST /api/v1/principals/&lt;id&gt;/console-links</code>. On a local <code>npm start</code>, the link is printed when the stack
        starts.
      </p>
    </section>
  );
}

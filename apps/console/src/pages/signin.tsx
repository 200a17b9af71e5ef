// The sign-in page (docs/console.md "Signing in"): single sign-on when the registry has an OpenID provider configured
// (the session answer says so), and how to get a one-time link. A refused sign-in is answered by the sign-in endpoints
// themselves, with a page that links back here.
import { ErrorNotice, PageHeading } from '../components/page';
import { safeNext } from '../router';
import type { SignedOut } from '../session';

export function SignInPage({ signedOut, error }: { signedOut: SignedOut; error: string | null }) {
  const next = safeNext(new URLSearchParams(location.search).get('next'));
  const oidcHref = `/console/auth/oidc${next ? `?next=${encodeURIComponent(next)}` : ''}`;
  return (
    <section class="signin">
      <PageHeading>Sign in to the Arbiter console</PageHeading>
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

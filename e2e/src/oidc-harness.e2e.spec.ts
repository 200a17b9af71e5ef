import * as client from 'openid-client';
import { CookieJar, loginAt, startOidcProvider, type OidcHarness } from './oidc-harness';

/** The test OpenID provider itself: a real authorization code flow with PKCE, the subject chosen by the test. */
describe('startOidcProvider', () => {
  let sut: OidcHarness;
  const redirect = 'http://127.0.0.1:9/callback';

  beforeAll(async () => {
    sut = await startOidcProvider();
    await sut.addClient({ client_id: 'public-app', redirect_uris: [redirect] });
  });
  afterAll(() => sut.stop());

  const config = () =>
    client.discovery(new URL(sut.issuer), 'public-app', undefined, client.None(), { execute: [client.allowInsecureRequests] });

  it('issues an ID token for the subject the test signs in as', async () => {
    const cfg = await config();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(cfg, {
      redirect_uri: redirect,
      scope: 'openid',
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const back = await loginAt(new CookieJar(), url.href, 'alice@example');
    const tokens = await client.authorizationCodeGrant(cfg, new URL(back), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()).toMatchObject({ iss: sut.issuer, sub: 'alice@example', aud: 'public-app' });
  });

  it('refuses an authorization request without PKCE', async () => {
    const cfg = await config();
    const url = client.buildAuthorizationUrl(cfg, { redirect_uri: redirect, scope: 'openid', state: 's' });
    const res = await fetch(url, { redirect: 'manual' });
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });
});

import * as oidc from 'openid-client';
import { isLoopbackUrl } from '../domain/console-cookies';

/** The console's OpenID Connect client (docs/identity.md "Console sign-in"): OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Absent: a public client, PKCE alone (RFC 7636); present: client_secret_basic. */
  clientSecret?: string;
}

/** What a sign-in keeps on the server between the redirect to the provider and the callback. */
export interface OidcTransaction {
  state: string;
  nonce: string;
  verifier: string;
}

/**
 * Reads OIDC_* once at start: the client id is required with the issuer, and the issuer is https (plain http only on a
 * loopback host, for a provider on the same machine); a bad combination stops the start naming the variable.
 */
export function oidcSettings(env: { OIDC_ISSUER?: string; OIDC_CLIENT_ID?: string; OIDC_CLIENT_SECRET?: string }): OidcSettings | null {
  if (!env.OIDC_ISSUER) {
    if (env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET)
      throw new Error('OIDC_ISSUER: required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set');
    return null;
  }
  if (!env.OIDC_CLIENT_ID) throw new Error('OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
  if (new URL(env.OIDC_ISSUER).protocol === 'http:' && !isLoopbackUrl(env.OIDC_ISSUER)) {
    throw new Error('OIDC_ISSUER: must use https (plain http only on a loopback host)');
  }
  return { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET };
}

/** The authorization code flow with PKCE (S256), state and nonce, through openid-client. */
export class OidcClient {
  private config: Promise<oidc.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  get issuer(): string {
    return this.settings.issuer;
  }

  static newTransaction(): OidcTransaction {
    return { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  }

  async authorizationUrl(redirectUri: string, t: OidcTransaction): Promise<string> {
    const url = oidc.buildAuthorizationUrl(await this.configuration(), {
      redirect_uri: redirectUri,
      scope: 'openid',
      state: t.state,
      nonce: t.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(t.verifier),
      code_challenge_method: 'S256',
    });
    return url.href;
  }

  /** Redeems the code; throws unless state, PKCE verifier, nonce, issuer and audience all check out. */
  async finish(redirectUri: string, callbackUrl: URL, t: OidcTransaction): Promise<{ iss: string; sub: string }> {
    const tokens = await oidc.authorizationCodeGrant(
      await this.configuration(),
      callbackUrl,
      { pkceCodeVerifier: t.verifier, expectedState: t.state, expectedNonce: t.nonce, idTokenExpected: true },
      { redirect_uri: redirectUri },
    );
    const claims = tokens.claims();
    if (!claims?.iss || !claims.sub) throw new Error('the ID token names no issuer or subject');
    return { iss: claims.iss, sub: claims.sub };
  }

  /** Discovery once, on first use (a provider that is down at start does not stop the registry); retried after a failure. */
  private configuration(): Promise<oidc.Configuration> {
    if (!this.config) {
      const { issuer, clientId, clientSecret } = this.settings;
      const auth = clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None();
      const options = new URL(issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
      const pending = oidc.discovery(new URL(issuer), clientId, clientSecret, auth, options);
      pending.catch(() => {
        if (this.config === pending) this.config = undefined;
      });
      this.config = pending;
    }
    return this.config;
  }
}

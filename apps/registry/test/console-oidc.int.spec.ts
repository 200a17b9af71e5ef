import request from 'supertest';
import { startTestRegistry, type RegistryHarness } from './harness';

/** Single sign-on when it is off or its provider is away (docs/identity.md "Console sign-in"): a page says so, never a 500. */
describe('console OpenID Connect without a provider', () => {
  let off: RegistryHarness;
  let away: RegistryHarness;

  beforeAll(async () => {
    off = await startTestRegistry();
    away = await startTestRegistry({ OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'arbiter-console' });
  });
  afterAll(async () => {
    await off?.stop();
    await away?.stop();
  });

  it('answers 404 on the sign-in routes when single sign-on is not configured, and the session API says so', async () => {
    const res = await request(off.url).get('/console/auth/oidc').expect(404);
    expect(res.text).toContain('Single sign-on is not configured');
    await request(off.url).get('/console/auth/callback?code=x&state=y').expect(404);
    expect((await request(off.url).get('/console/api/session').expect(401)).body).toEqual({ detail: 'Not signed in to the console' });
  });

  it('answers 503 with a page when the provider cannot be reached, and sets no transaction cookie', async () => {
    const res = await request(away.url).get('/console/auth/oidc').expect(503);
    expect(res.text).toContain('Single sign-on unavailable');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'/);
  });
});

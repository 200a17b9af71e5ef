import request from 'supertest';
import { startTestRegistry, type RegistryHarness } from './harness';

/**
 * The console when what it leans on is missing (docs/identity.md "Console sign-in"): no single sign-on, an identity
 * provider or a verdict service that cannot be reached. A page or an error body says so, never a 500.
 */
describe('console without its neighbours', () => {
  let off: RegistryHarness;
  let away: RegistryHarness;

  beforeAll(async () => {
    off = await startTestRegistry();
    away = await startTestRegistry({
      OIDC_ISSUER: 'http://127.0.0.1:9',
      OIDC_CLIENT_ID: 'arbiter-console',
      VERDICT_URL: 'http://127.0.0.1:9',
    });
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

  /** A session of a new human of the platform tenant holding `read`, by a one-time link: the cookie and CSRF token. */
  const signedIn = async (h: RegistryHarness) => {
    const auth = { Authorization: `Bearer ${h.adminKey}` };
    const human = await request(h.url)
      .post('/api/v1/principals')
      .set(auth)
      .send({ kind: 'human', name: 'Eve', console_permissions: ['read'] });
    const link = await request(h.url).post(`/api/v1/principals/${human.body.id}/console-links`).set(auth).expect(201);
    const path = new URL(link.body.url).pathname;
    const page = await request(h.url).get(path).expect(200);
    const formToken = /name="form_token" value="([^"]+)"/.exec(page.text)![1];
    const formCookie = page.headers['set-cookie'][0].split(';')[0];
    const posted = await request(h.url).post(path).type('form').set('Cookie', formCookie).send({ form_token: formToken }).expect(303);
    const cookie = (posted.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('arbiter_console='))!.split(';')[0];
    const session = await request(h.url).get('/console/api/session').set('Cookie', cookie).expect(200);
    return { cookie, csrf: session.body.csrf_token as string };
  };

  it('answers 503 on the verdict forwarder of a registry without VERDICT_URL, the registry forwarder still working', async () => {
    const { cookie } = await signedIn(off);
    await request(off.url).get('/console/api/registry/scopes').set('Cookie', cookie).expect(200);
    const res = await request(off.url).get('/console/api/verdict/v1/whoami').set('Cookie', cookie).expect(503);
    // A 5xx names its error id, as every 5xx of the registry does.
    expect(res.body.detail).toMatch(/^The verdict service is not configured on this registry \(VERDICT_URL\) \(error id /);
  });

  it('answers 502 when the verdict service cannot be reached', async () => {
    const { cookie } = await signedIn(away);
    const res = await request(away.url).get('/console/api/verdict/v1/whoami').set('Cookie', cookie).expect(502);
    expect(res.body.detail).toMatch(/^The verdict service could not be reached \(error id /);
  });
});

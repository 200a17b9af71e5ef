import { createHash } from 'node:crypto';
import request from 'supertest';
import { bootstrapConsoleLink } from '@arbiter/devstack';
import { eventually } from '@arbiter/testing';
import { createTenantWithAdmin, type TenantFixture } from '../../../apps/registry/test/harness';
import { CookieJar, loginAt, startOidcProvider, type OidcHarness } from '../oidc-harness';
import { startStack, type Stack } from '../stack';

/**
 * Abuse cases of the console's server side (docs/identity.md "Console sign-in", ADR 0029), each beside the legitimate
 * use it must not break, through the public HTTP surface: one-time links, OpenID Connect against a real provider, the
 * session cookie, CSRF, the forwarders, and a session's death.
 */
describe('abuse: console sign-in and sessions', () => {
  let oidc: OidcHarness;
  let stack: Stack;
  let a: TenantFixture;
  let b: TenantFixture;
  let url: string;
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  beforeAll(async () => {
    oidc = await startOidcProvider();
    stack = await startStack({
      verdict: { stablePort: true },
      ledger: true,
      registry: { env: { OIDC_ISSUER: oidc.issuer, OIDC_CLIENT_ID: 'arbiter-console', OIDC_CLIENT_SECRET: 'console-secret-0123456789' } },
    });
    url = stack.registry.url;
    await oidc.addClient({
      client_id: 'arbiter-console',
      client_secret: 'console-secret-0123456789',
      redirect_uris: [`${url}/console/auth/callback`],
    });
    a = await createTenantWithAdmin(stack.registry, 'console-a');
    b = await createTenantWithAdmin(stack.registry, 'console-b');
  });
  afterAll(async () => {
    await stack?.stop();
    await oidc?.stop();
  });

  const human = async (fields: object = {}, key = a.admin.key): Promise<string> =>
    (
      await request(url)
        .post('/api/v1/principals')
        .set(bearer(key))
        .send({ kind: 'human', name: 'Person', ...fields })
        .expect(201)
    ).body.id;
  /** A human of tenant A bound to an OpenID Connect identity: binding one is a platform admin's (docs/identity.md "Privilege boundaries"). */
  const bound = (fields: object): Promise<string> => human({ ...fields, tenant_id: a.tenant.id }, stack.registry.adminKey);
  const link = async (principalId: string, key = a.admin.key): Promise<string> =>
    (await request(url).post(`/api/v1/principals/${principalId}/console-links`).set(bearer(key)).expect(201)).body.url;

  /** Opens the link's page and presses its button, as a browser does: answers the jar holding the session. */
  const signInByLink = async (linkUrl: string): Promise<CookieJar> => {
    const jar = new CookieJar();
    const page = await jar.fetch(linkUrl);
    expect(page.status).toBe(200);
    const formToken = /name="form_token" value="([^"]+)"/.exec(await page.text())![1];
    const posted = await jar.fetch(linkUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ form_token: formToken }).toString(),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/console/');
    return jar;
  };
  const session = async (jar: CookieJar) => {
    const res = await jar.fetch(`${url}/console/api/session`);
    return { status: res.status, body: (await res.json()) as { csrf_token: string; expires_at: string; [field: string]: unknown } };
  };
  /** A call through a forwarder, as the console app makes it (same-origin, CSRF token on writes). */
  const call = async (
    jar: CookieJar,
    method: string,
    path: string,
    body?: object,
    csrf?: string | null,
    extra: Record<string, string> = {},
  ) => {
    const token = csrf === undefined ? (await session(jar)).body.csrf_token : csrf;
    const headers: Record<string, string> = { origin: url, 'sec-fetch-site': 'same-origin', ...extra };
    if (token) headers['x-csrf-token'] = token;
    if (body) headers['content-type'] = 'application/json';
    const res = await jar.fetch(`${url}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };

  describe('one-time links', () => {
    it('signs in with a link once: the page consumes nothing, its button opens a session with the console permissions', async () => {
      const id = await human({ name: 'Ada', console_permissions: ['read', 'approve'] });
      const res = await request(url).post(`/api/v1/principals/${id}/console-links`).set(bearer(a.admin.key)).expect(201);
      expect(res.body.url).toMatch(new RegExp(`^${url}/console/auth/link/[A-Za-z0-9_-]{43}$`));
      const stored = await stack
        .db('registry')
        .query('SELECT extract(epoch FROM expires_at - created_at)::int AS seconds, used_at FROM console_links WHERE principal_id = $1', [
          id,
        ]);
      expect(stored.rows).toEqual([{ seconds: 600, used_at: null }]);
      expect(Date.parse(res.body.expires_at)).not.toBeNaN();
      const prefetch = await fetch(res.body.url);
      expect(await prefetch.text()).toContain('<button type="submit">Sign in</button>');
      const jar = await signInByLink(res.body.url);
      const s = await session(jar);
      expect(s.status).toBe(200);
      expect(s.body).toMatchObject({
        principal: { id, name: 'Ada', kind: 'human', roles: [] },
        tenant_id: a.tenant.id,
        permissions: ['read', 'approve'],
        verdict_base: '/console/api/verdict',
      });
      expect(s.body.csrf_token).toEqual(expect.any(String));
      const again = await new CookieJar().fetch(res.body.url);
      expect(again.status).toBe(410);
      expect(await again.text()).toContain('Link already used');
    });

    it('sets the session cookie HttpOnly, SameSite=Strict, Path=/console, without Secure on loopback', async () => {
      const linkUrl = await link(await human());
      const jar = new CookieJar();
      const page = await jar.fetch(linkUrl);
      const formToken = /name="form_token" value="([^"]+)"/.exec(await page.text())![1];
      const posted = await jar.fetch(linkUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `form_token=${formToken}`,
      });
      const cookie = posted.headers.getSetCookie().find((c) => c.startsWith('arbiter_console='))!;
      expect(cookie).toMatch(/; Path=\/console; Max-Age=28800; HttpOnly; SameSite=Strict$/);
      expect(cookie).not.toMatch(/Secure/);
    });

    it('refuses a link whose 10 minutes are over, and an unknown one', async () => {
      const linkUrl = await link(await human());
      const token = linkUrl.split('/').pop()!;
      await stack
        .db('registry')
        .query(`UPDATE console_links SET expires_at = now() - interval '1 second' WHERE token_hash = encode(sha256($1::bytea), 'hex')`, [
          token,
        ]);
      const expired = await fetch(linkUrl);
      expect(expired.status).toBe(410);
      expect(await expired.text()).toContain('Link expired');
      const unknown = await fetch(`${url}/console/auth/link/${'x'.repeat(43)}`);
      expect(unknown.status).toBe(404);
      expect((await fetch(`${url}/console/auth/link/short`)).status).toBe(404);
    });

    it('refuses a POST that did not come from the link page in the same browser (login CSRF), and leaves the link usable', async () => {
      const linkUrl = await link(await human());
      const forged = await fetch(linkUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        body: 'form_token=anything',
      });
      expect(forged.status).toBe(403);
      const noCookie = await fetch(linkUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'form_token=x',
      });
      expect(noCookie.status).toBe(403);
      await signInByLink(linkUrl);
    });

    it("gives npm start's link for the bootstrap admin a session holding platform_admin", async () => {
      const made = await bootstrapConsoleLink(url, stack.registry.adminKey);
      if (!('url' in made)) throw new Error(made.error);
      const s = await session(await signInByLink(made.url));
      expect(s.body).toMatchObject({ principal: { name: 'platform-admin' }, permissions: ['platform_admin'] });
    });

    it('makes links for a human principal of the admin own tenant only', async () => {
      const other = await human({}, b.admin.key);
      const cross = await request(url).post(`/api/v1/principals/${other}/console-links`).set(bearer(a.admin.key)).expect(404);
      expect(cross.body).toEqual({ detail: `Principal ${other} not found` });
      const agent = (
        await request(url).post('/api/v1/principals').set(bearer(a.admin.key)).send({ kind: 'agent', name: 'bot' }).expect(201)
      ).body.id;
      const refused = await request(url).post(`/api/v1/principals/${agent}/console-links`).set(bearer(a.admin.key)).expect(422);
      expect(refused.body.detail).toMatch(/human principals only/);
      await request(url).post(`/api/v1/principals/${other}/console-links`).set(bearer(stack.registry.adminKey)).expect(201);
    });

    it('never lets a link carry more than its creator holds, nor a console session make one', async () => {
      const root = await human({ console_permissions: ['platform_admin'] }, stack.registry.adminKey);
      const res = await request(url).post(`/api/v1/principals/${root}/console-links`).set(bearer(stack.registry.adminKey)).expect(201);
      expect(res.body.url).toContain('/console/auth/link/');
      const adminId = await human({ console_permissions: ['admin'] });
      const jar = await signInByLink(await link(adminId));
      const mine = await call(jar, 'POST', `/console/api/registry/principals/${adminId}/console-links`);
      expect(mine.status).toBe(403);
      expect(mine.body.detail).toMatch(/console session cannot create sign-in links/);
    });

    it('opens no session that could outlive the key whose link opens it: a key minted by a session cannot sign in anew', async () => {
      const adminId = await human({ console_permissions: ['admin'] });
      const jar = await signInByLink(await link(adminId));
      const { body } = await session(jar);
      const minted = await call(jar, 'POST', '/console/api/registry/api-keys', {
        principal_id: adminId,
        permissions: ['admin'],
        expires_at: body.expires_at,
      });
      expect(minted.status).toBe(201);
      const renew = await request(url).post(`/api/v1/principals/${adminId}/console-links`).set(bearer(minted.body.key)).expect(403);
      expect(renew.body.detail).toMatch(/cannot create sign-in links: the session one opens may last until/);
      // A key that outlives any session its link could open makes links as before.
      const lasting = await request(url)
        .post('/api/v1/api-keys')
        .set(bearer(a.admin.key))
        .send({ principal_id: adminId, permissions: ['admin'], expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() })
        .expect(201);
      await request(url).post(`/api/v1/principals/${adminId}/console-links`).set(bearer(lasting.body.key)).expect(201);
    });

    it('refuses a tenant admin a link for a principal holding a live platform_admin key, as it refuses minting it one', async () => {
      const person = await human({ name: 'Operator', console_permissions: ['read', 'approve'] });
      await request(url).post(`/api/v1/principals/${person}/console-links`).set(bearer(a.admin.key)).expect(201);
      const key = await request(url)
        .post('/api/v1/api-keys')
        .set(bearer(stack.registry.adminKey))
        .send({ principal_id: person, permissions: ['platform_admin'], tenant_id: a.tenant.id })
        .expect(201);
      const refused = await request(url).post(`/api/v1/principals/${person}/console-links`).set(bearer(a.admin.key)).expect(403);
      expect(refused.body).toEqual({ detail: 'Only a platform admin may create a sign-in link for a principal holding platform_admin' });
      await request(url).post(`/api/v1/principals/${person}/console-links`).set(bearer(stack.registry.adminKey)).expect(201);
      await request(url).delete(`/api/v1/api-keys/${key.body.id}`).set(bearer(stack.registry.adminKey)).expect(200);
      await request(url).post(`/api/v1/principals/${person}/console-links`).set(bearer(a.admin.key)).expect(201);
    });
  });

  describe('the forwarders', () => {
    it('act as the principal with its console permissions, through the public API checks', async () => {
      const reader = await signInByLink(await link(await human({ console_permissions: ['read'] })));
      expect((await call(reader, 'GET', '/console/api/registry/scopes')).status).toBe(200);
      const write = await call(reader, 'POST', '/console/api/registry/scopes', { name: 'nope' });
      expect(write).toMatchObject({ status: 403, body: { detail: 'Missing permission: admin' } });
      const approvals = await call(reader, 'GET', `/console/api/verdict/${a.tenant.id}/v1/approvals`);
      expect(approvals.status).toBe(200);
      const foreign = await call(reader, 'GET', `/console/api/verdict/${b.tenant.id}/v1/approvals`);
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe('cross_tenant_forbidden');
      expect(approvals.headers.get('cache-control')).toBe('no-store');
    });

    it('needs the CSRF token on every write: none 403, a wrong one 403, the right one passes', async () => {
      const admin = await signInByLink(await link(await human({ console_permissions: ['admin'] })));
      const none = await call(admin, 'POST', '/console/api/registry/scopes', { name: 'csrf-1' }, null);
      expect(none).toMatchObject({ status: 403, body: { detail: expect.stringMatching(/Missing X-CSRF-Token/) } });
      const wrong = await call(admin, 'POST', '/console/api/registry/scopes', { name: 'csrf-1' }, 'not-the-token');
      expect(wrong).toMatchObject({ status: 403, body: { detail: 'Wrong X-CSRF-Token' } });
      const crossSite = await call(admin, 'POST', '/console/api/registry/scopes', { name: 'csrf-1' }, undefined, {
        'sec-fetch-site': 'cross-site',
      });
      expect(crossSite.status).toBe(403);
      const ok = await call(admin, 'POST', '/console/api/registry/scopes', { name: 'csrf-1' });
      expect(ok.status).toBe(201);
      expect(ok.body.name).toBe('csrf-1');
    });

    it('answers 401 without a session, and refuses paths that leave the public APIs', async () => {
      const res = await request(url).get('/console/api/registry/scopes').expect(401);
      expect(res.body).toEqual({ detail: 'Not signed in to the console, or the session has ended' });
      const s = await request(url).get('/console/api/session').expect(401);
      expect(s.body).toEqual({ detail: 'Not signed in to the console', oidc: true });
      const jar = await signInByLink(await link(await human({ console_permissions: ['admin'] })));
      // Sent as is (fetch would resolve the dot segments itself).
      const cookie = `arbiter_console=${jar.get(url, 'arbiter_console')}`;
      await request(url).get('/console/api/registry/%2e%2e/%2e%2e/internal/v1/principals').set('Cookie', cookie).expect(400);
      await request(url).get('/console/api/registry/../../internal/v1/principals').set('Cookie', cookie).expect(400);
      expect((await call(jar, 'GET', '/console/api/verdict/internal/v1/state')).status).toBe(400);
    });

    it("reaches only the verdict service's public API: its metrics, probes and API pages are not found", async () => {
      const jar = await signInByLink(await link(await human({ console_permissions: ['read'] })));
      for (const p of ['metrics', 'readyz', 'livez', 'docs/', 'docs/v1/x', 'openapi.json', 'metrics/v1/x']) {
        const res = await call(jar, 'GET', `/console/api/verdict/${p}`);
        expect({ p, status: res.status, body: res.body }).toEqual({
          p,
          status: 404,
          body: { detail: "Not a path of the verdict service's public API" },
        });
      }
      expect(await call(jar, 'GET', '/console/api/verdict/v1/whoami')).toMatchObject({ status: 200 });
      expect(await call(jar, 'GET', `/console/api/verdict/${a.tenant.id}/v1/approvals`)).toMatchObject({ status: 200 });
    });

    it('never mints a console session into more: no key above its permissions or past its end, no verdict session', async () => {
      const adminId = await human({ console_permissions: ['admin'] });
      const jar = await signInByLink(await link(adminId));
      const up = await call(jar, 'POST', '/console/api/registry/api-keys', { principal_id: adminId, permissions: ['platform_admin'] });
      expect(up.status).toBe(403);
      const forever = await call(jar, 'POST', '/console/api/registry/api-keys', { principal_id: adminId, permissions: ['read'] });
      expect(forever.status).toBe(403);
      expect(forever.body.detail).toMatch(/expires_at must be no later/);
      const { body } = await session(jar);
      const bounded = await call(jar, 'POST', '/console/api/registry/api-keys', {
        principal_id: adminId,
        permissions: ['read'],
        expires_at: body.expires_at,
      });
      expect(bounded.status).toBe(201);
      const verdictSession = await call(jar, 'POST', '/console/api/verdict/v1/sessions');
      expect(verdictSession).toMatchObject({ status: 403, body: { code: 'insufficient_permission' } });
    });

    it("caps the keys a platform admin's console session mints at the session's end too", async () => {
      const made = await bootstrapConsoleLink(url, stack.registry.adminKey);
      if (!('url' in made)) throw new Error(made.error);
      const jar = await signInByLink(made.url);
      const { body } = await session(jar);
      const me = (body.principal as { id: string }).id;
      const forever = await call(jar, 'POST', '/console/api/registry/api-keys', { principal_id: me, permissions: ['read'] });
      expect(forever.status).toBe(403);
      expect(forever.body.detail).toMatch(/expires_at must be no later/);
      const later = new Date(Date.parse(body.expires_at) + 60_000).toISOString();
      const past = await call(jar, 'POST', '/console/api/registry/api-keys', {
        principal_id: me,
        permissions: ['read'],
        expires_at: later,
      });
      expect(past.status).toBe(403);
      const bounded = await call(jar, 'POST', '/console/api/registry/api-keys', {
        principal_id: me,
        permissions: ['read'],
        expires_at: body.expires_at,
      });
      expect(bounded.status).toBe(201);
      const byKey = await request(url)
        .post('/api/v1/api-keys')
        .set(bearer(stack.registry.adminKey))
        .send({ principal_id: me, permissions: ['read'] })
        .expect(201);
      expect(byKey.body.expires_at).toBeNull();
    });
  });

  describe('the end of a session', () => {
    it('dies at once when the principal is deactivated: the next forwarded call is 401 on both services', async () => {
      const id = await human({ console_permissions: ['read'] });
      const jar = await signInByLink(await link(id));
      expect((await call(jar, 'GET', `/console/api/verdict/${a.tenant.id}/v1/approvals`)).status).toBe(200);
      await request(url).patch(`/api/v1/principals/${id}`).set(bearer(a.admin.key)).send({ active: false }).expect(200);
      expect((await call(jar, 'GET', '/console/api/registry/scopes', undefined, null)).status).toBe(401);
      expect((await session(jar)).status).toBe(401);
      // Activated again, the principal signs in anew: the old session stays over.
      await request(url).patch(`/api/v1/principals/${id}`).set(bearer(a.admin.key)).send({ active: true }).expect(200);
      expect((await session(jar)).status).toBe(401);
      expect((await session(await signInByLink(await link(id)))).status).toBe(200);
    });

    it('ends the outstanding sign-in links on deactivation: activated again, the principal needs a new link', async () => {
      const id = await human({ console_permissions: ['read'] });
      const old = await link(id);
      // The page is opened before the deactivation, as a person who got the link would have: its form is then stale.
      const jar = new CookieJar();
      const page = await jar.fetch(old);
      expect(page.status).toBe(200);
      const formToken = /name="form_token" value="([^"]+)"/.exec(await page.text())![1];
      await request(url).patch(`/api/v1/principals/${id}`).set(bearer(a.admin.key)).send({ active: false }).expect(200);
      await request(url).patch(`/api/v1/principals/${id}`).set(bearer(a.admin.key)).send({ active: true }).expect(200);
      const posted = await jar.fetch(old, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ form_token: formToken }).toString(),
      });
      expect(posted.status).toBe(410);
      expect((await session(jar)).status).toBe(401);
      expect((await new CookieJar().fetch(old)).status).toBe(410);
      expect((await session(await signInByLink(await link(id)))).status).toBe(200);
    });

    it('dies on the verdict service too: its cache drops the credential on deactivation and on sign-out', async () => {
      const id = await human({ console_permissions: ['read'] });
      const jar = await signInByLink(await link(id));
      // The forwarders' credential, derived from the cookie here with node:crypto's streaming hash (ADR 0029).
      const credential = `cs-${createHash('sha256')
        .update(`arbiter console credential\n${jar.get(url, 'arbiter_console')}`)
        .digest('hex')}`;
      const whoami = await request(stack.verdict.url).get('/v1/whoami').set('X-API-Key', credential).expect(200);
      expect(whoami.body).toMatchObject({
        key_id: expect.stringMatching(/^ses-/),
        principal: { id },
        permissions: ['read'],
        scope_ids: [],
      });
      await request(url).patch(`/api/v1/principals/${id}`).set(bearer(a.admin.key)).send({ active: false }).expect(200);
      await eventually('the deactivation on the verdict service', async () => {
        const res = await request(stack.verdict.url).get('/v1/whoami').set('X-API-Key', credential);
        return res.status === 401;
      });

      const other = await signInByLink(await link(await human({ console_permissions: ['read'] })));
      const otherCredential = `cs-${createHash('sha256')
        .update(`arbiter console credential\n${other.get(url, 'arbiter_console')}`)
        .digest('hex')}`;
      await request(stack.verdict.url).get('/v1/whoami').set('X-API-Key', otherCredential).expect(200);
      expect((await call(other, 'POST', '/console/api/signout')).status).toBe(204);
      await eventually('the sign-out on the verdict service', async () => {
        const res = await request(stack.verdict.url).get('/v1/whoami').set('X-API-Key', otherCredential);
        return res.status === 401;
      });
    });

    it('loses a permission on the next request when an admin removes it from console_permissions', async () => {
      const id = await human({ console_permissions: ['admin'] });
      const jar = await signInByLink(await link(id));
      expect((await call(jar, 'POST', '/console/api/registry/scopes', { name: 'perm-1' })).status).toBe(201);
      await request(url).patch(`/api/v1/principals/${id}`).set(bearer(a.admin.key)).send({ console_permissions: [] }).expect(200);
      const after = await call(jar, 'POST', '/console/api/registry/scopes', { name: 'perm-2' });
      expect(after).toMatchObject({ status: 403, body: { detail: 'Missing permission: admin' } });
      await eventually('the narrowed permissions on the verdict service', async () => {
        const v = await call(jar, 'POST', '/console/api/verdict/v1/sessions');
        return v.status === 403 && v.body.code === 'insufficient_permission' && /Missing permission/.test(v.body.message);
      });
    });

    it('ends at sign-out (CSRF-checked): the cookie is dropped and the session answers 401', async () => {
      const jar = await signInByLink(await link(await human({ console_permissions: ['read'] })));
      expect((await call(jar, 'POST', '/console/api/signout', undefined, null)).status).toBe(403);
      const { body } = await session(jar);
      const out = await jar.fetch(`${url}/console/api/signout`, {
        method: 'POST',
        headers: { 'x-csrf-token': body.csrf_token, 'sec-fetch-site': 'same-origin' },
      });
      expect(out.status).toBe(204);
      expect(out.headers.getSetCookie()[0]).toMatch(/^arbiter_console=; Path=\/console; Max-Age=0; HttpOnly; SameSite=Strict/);
      expect((await session(jar)).status).toBe(401);
    });
  });

  describe('OpenID Connect', () => {
    const start = async (jar: CookieJar): Promise<string> => {
      const res = await jar.fetch(`${url}/console/auth/oidc?next=${encodeURIComponent('/console/history')}`);
      expect(res.status).toBe(302);
      const location = res.headers.get('location')!;
      expect(location.startsWith(`${oidc.issuer}/auth?`)).toBe(true);
      const params = new URL(location).searchParams;
      expect(params.get('code_challenge_method')).toBe('S256');
      expect(params.get('redirect_uri')).toBe(`${url}/console/auth/callback`);
      expect(params.get('nonce')).toEqual(expect.any(String));
      return location;
    };

    it('signs in a known subject and refuses an unknown one without creating anything', async () => {
      const id = await bound({ name: 'Grace', oidc_issuer: oidc.issuer, oidc_subject: 'grace', console_permissions: ['read'] });
      const jar = new CookieJar();
      const back = await loginAt(jar, await start(jar), 'grace');
      const done = await jar.fetch(back);
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('url=/console/history');
      expect((await session(jar)).body).toMatchObject({ principal: { id, name: 'Grace' }, permissions: ['read'] });

      const before = await stack.db('registry').query('SELECT count(*)::int AS n FROM principals');
      const stranger = new CookieJar();
      const refused = await stranger.fetch(await loginAt(stranger, await start(stranger), 'mallory'));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('No Arbiter account');
      expect((await session(stranger)).status).toBe(401);
      expect((await stack.db('registry').query('SELECT count(*)::int AS n FROM principals')).rows).toEqual(before.rows);
    });

    it('refuses a deactivated principal even with its bound identity', async () => {
      const id = await bound({ oidc_issuer: oidc.issuer, oidc_subject: 'gone' });
      await request(url).patch(`/api/v1/principals/${id}`).set(bearer(a.admin.key)).send({ active: false }).expect(200);
      const jar = new CookieJar();
      expect((await jar.fetch(await loginAt(jar, await start(jar), 'gone'))).status).toBe(403);
    });

    it('refuses a callback whose state is not the one this browser started', async () => {
      await bound({ oidc_issuer: oidc.issuer, oidc_subject: 'state-test' });
      const jar = new CookieJar();
      const back = new URL(await loginAt(jar, await start(jar), 'state-test'));
      back.searchParams.set('state', 'forged-state');
      const res = await jar.fetch(back.href);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('Sign-in failed');
      const elsewhere = await new CookieJar().fetch(back.href);
      expect(elsewhere.status).toBe(400);
      expect(await elsewhere.text()).toContain('Sign-in expired');
    });

    it("refuses a code injected into another sign-in (the PKCE verifier does not match), the attacker's own included", async () => {
      await bound({ oidc_issuer: oidc.issuer, oidc_subject: 'victim' });
      const attacker = new CookieJar();
      const stolen = new URL(await loginAt(attacker, await start(attacker), 'victim'));
      const victim = new CookieJar();
      const own = new URL(await loginAt(victim, await start(victim), 'someone-else'));
      const injected = new URL(own.href);
      injected.searchParams.set('code', stolen.searchParams.get('code')!);
      const res = await victim.fetch(injected.href);
      expect(res.status).toBe(400);
      expect((await session(victim)).status).toBe(401);
    });

    describe('with Redis unreachable (a registry pointed at a closed port)', () => {
      let down: Stack;
      beforeAll(async () => {
        down = await startStack({
          registry: {
            env: {
              REDIS_URL: 'redis://127.0.0.1:9',
              OIDC_ISSUER: oidc.issuer,
              OIDC_CLIENT_ID: 'arbiter-console',
              OIDC_CLIENT_SECRET: 'console-secret-0123456789',
            },
          },
        });
      });
      afterAll(async () => {
        await down?.stop();
      });

      const expectUnavailablePage = async (res: Response) => {
        expect(res.status).toBe(503);
        expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
        const page = await res.text();
        expect(page).toContain('Single sign-on unavailable');
        // Not the page of an unreachable identity provider: this one is.
        expect(page).toContain('Sign-in cannot be completed right now');
        expect(page).not.toContain('error id');
      };

      it('answers a 503 page when a sign-in starts, with no transaction cookie, and the provider itself reachable', async () => {
        const jar = new CookieJar();
        const res = await jar.fetch(`${down.registry.url}/console/auth/oidc?next=${encodeURIComponent('/console/history')}`);
        expect(res.headers.getSetCookie().filter((c) => c.startsWith('arbiter_console_oidc=') && !/Max-Age=0/i.test(c))).toEqual([]);
        await expectUnavailablePage(res);
        expect((await fetch(`${oidc.issuer}/.well-known/openid-configuration`)).status).toBe(200);
      });

      it('opens no session for a valid code and state when the transaction cannot be read: a 503 page', async () => {
        await bound({ oidc_issuer: oidc.issuer, oidc_subject: 'redis-down' });
        const jar = new CookieJar();
        const back = new URL(await loginAt(jar, await start(jar), 'redis-down'));
        const state = jar.get(url, 'arbiter_console_oidc')!;
        expect(state).toEqual(expect.any(String));
        const res = await fetch(`${down.registry.url}${back.pathname}${back.search}`, {
          headers: { cookie: `arbiter_console_oidc=${state}` },
          redirect: 'manual',
        });
        expect(res.headers.getSetCookie().filter((c) => c.startsWith('arbiter_console='))).toEqual([]);
        await expectUnavailablePage(res);
        // The same callback on the registry whose Redis answers signs in: the refusal was Redis, not the request.
        expect((await jar.fetch(back.href)).status).toBe(200);
      });
    });
  });

  describe('serving /console', () => {
    it('serves the app under a strict Content-Security-Policy, index.html for every app route, HTML never cached', async () => {
      for (const path of ['/console/', '/console/approvals/verdict/apr-1', '/console/signin']) {
        const res = await request(url).get(path).expect(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.headers['content-security-policy']).toBe(
          "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        );
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('no-referrer');
        expect(res.headers['cache-control']).toBe('no-store');
      }
      const index = await request(url).get('/console/').expect(200);
      const script = /src="(\/console\/main-[^"]+\.js)"/.exec(index.text)![1];
      const asset = await request(url).get(script).expect(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
      expect(asset.headers['content-security-policy']).toBeDefined();
      await request(url).get('/console').expect(301).expect('location', '/console/');
      expect((await request(url).get('/console/api/nothing').expect(404)).headers['content-security-policy']).toBeDefined();
    });
  });
});

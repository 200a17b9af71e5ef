import { makeKey, signJws, TENANT, verdictClaims } from '../test/fixtures';
import { VerdictVerificationError } from './errors';
import { RemoteJwks } from './jwks';
import { verifyVerdict } from './verify-verdict';

const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });
const now = Date.parse('2026-03-01T12:00:00.000Z');
const jwks = { keys: [key.jwk] };

async function failure(p: Promise<unknown>): Promise<VerdictVerificationError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VerdictVerificationError);
  return err as VerdictVerificationError;
}

/** Flips one character of a base64url segment (0 header, 1 payload, 2 signature). */
function tamper(jws: string, segment: number): string {
  const parts = jws.split('.');
  const s = parts[segment];
  const i = Math.floor(s.length / 2);
  parts[segment] = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  return parts.join('.');
}

describe(verifyVerdict.name, () => {
  const sut = verifyVerdict;

  it('returns the typed claims of a verdict signed by the kid named in its header', async () => {
    const jws = signJws(verdictClaims({}, now), key);
    const result = await sut(jws, { jwks, now });
    expect(result).toMatchObject({ kid: key.jwk.kid, expired: false, claims: { verdict: 'allowed', jti: 'cns-1', tenant_id: TENANT } });
    expect(result.expiresAt.getTime()).toBe((Math.floor(now / 1000) + 300) * 1000);
  });

  it('refuses a changed payload byte with invalid_signature', async () => {
    const jws = signJws(verdictClaims({}, now), key);
    expect((await failure(sut(tamper(jws, 1), { jwks, now }))).code).toBe('invalid_signature');
    // A change that still decodes: another verdict spliced onto the original signature.
    const [h, , s] = jws.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify(verdictClaims({ verdict: 'allowed', action: 'payments.refund' }, now))).toString('base64url')}.${s}`;
    const err = await failure(sut(forged, { jwks, now }));
    expect(err.code).toBe('invalid_signature');
    expect(err.message).toContain(key.jwk.kid);
  });

  it('refuses a changed signature with invalid_signature', async () => {
    const jws = signJws(verdictClaims({}, now), key);
    expect((await failure(sut(tamper(jws, 2), { jwks, now }))).code).toBe('invalid_signature');
  });

  it('refuses a kid absent from the key set with unknown_kid, naming the keys it has', async () => {
    const jws = signJws(verdictClaims({}, now), key, { kid: `${TENANT}:1999` });
    const err = await failure(sut(jws, { jwks, now }));
    expect(err.code).toBe('unknown_kid');
    expect(err.message).toContain(key.jwk.kid);
  });

  it('refuses a verdict signed by another key under a known kid with invalid_signature', async () => {
    const other = makeKey(key.jwk.kid);
    const err = await failure(sut(signJws(verdictClaims({}, now), other), { jwks, now }));
    expect(err.code).toBe('invalid_signature');
  });

  it('refuses an expired verdict with expired, and reports it with allowExpired', async () => {
    const jws = signJws(verdictClaims({}, now - 600_000), key);
    const err = await failure(sut(jws, { jwks, now }));
    expect(err.code).toBe('expired');
    expect(err.claims?.jti).toBe('cns-1');
    await expect(sut(jws, { jwks, now, allowExpired: true })).resolves.toMatchObject({ expired: true });
    await expect(sut(jws, { jwks, now, clockToleranceSeconds: 600 })).resolves.toMatchObject({ expired: false });
  });

  it('refuses an iat outside the key window with key_not_valid_at_iat', async () => {
    const retired = makeKey(`${TENANT}:2025`, { notBefore: '2025-01-01T00:00:00.000Z', notAfter: '2026-02-01T00:00:00.000Z' });
    const jws = signJws(verdictClaims({}, now), retired);
    const err = await failure(sut(jws, { jwks: { keys: [retired.jwk] }, now }));
    expect(err.code).toBe('key_not_valid_at_iat');
    expect(err.message).toContain('2026-02-01T00:00:00.000Z');
    const early = signJws(verdictClaims({}, Date.parse('2025-06-01T00:00:00Z')), key);
    expect((await failure(sut(early, { jwks, now, allowExpired: true }))).code).toBe('key_not_valid_at_iat');
  });

  it('refuses a verdict that lives longer than any verdict_ttl_seconds, or not at all, with malformed', async () => {
    const iat = Math.floor(now / 1000);
    for (const exp of [iat + 3601, iat, iat - 1]) {
      const err = await failure(sut(signJws(verdictClaims({ exp }, now), key), { jwks, now, allowExpired: true }));
      expect([exp - iat, err.code, err.message]).toEqual([exp - iat, 'malformed', expect.stringContaining('a verdict lives 1 to 3600 s')]);
    }
    await expect(sut(signJws(verdictClaims({ exp: iat + 3600 }, now), key), { jwks, now })).resolves.toBeDefined();
    // Whoever kept a retired key cannot backdate a verdict that lasts: its life is bounded from the iat they chose.
    const retired = makeKey(`${TENANT}:2025`, { notBefore: '2025-01-01T00:00:00.000Z', notAfter: '2026-02-01T00:00:00.000Z' });
    const backdated = verdictClaims({ exp: Math.floor(Date.parse('2036-01-01T00:00:00Z') / 1000) }, Date.parse('2026-01-31T23:00:00Z'));
    expect((await failure(sut(signJws(backdated, retired), { jwks: { keys: [retired.jwk] }, now }))).code).toBe('malformed');
  });

  it('refuses a key whose window does not read as instants with malformed (2026-02-30 would read as March 2)', async () => {
    for (const window of [
      { notBefore: '2026-01-01T00:00:00.000Z', notAfter: '2026-02-30T00:00:00.000Z' },
      { notBefore: '2026-01-01T00:00:00' },
    ]) {
      const odd = makeKey(`${TENANT}:2026`, window);
      const err = await failure(sut(signJws(verdictClaims({}, now), odd), { jwks: { keys: [odd.jwk] }, now }));
      expect([window, err.code, err.message]).toEqual([window, 'malformed', expect.stringContaining('unreadable validity window')]);
    }
  });

  it('accepts a verdict of a since-retired key inside its window, unless refuseRetiredKeys', async () => {
    const retired = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z', notAfter: new Date(now + 1000).toISOString() });
    const jws = signJws(verdictClaims({}, now), retired);
    await expect(sut(jws, { jwks: { keys: [retired.jwk] }, now })).resolves.toMatchObject({ kid: retired.jwk.kid });
    expect((await failure(sut(jws, { jwks: { keys: [retired.jwk] }, now, refuseRetiredKeys: true }))).code).toBe('key_retired');
  });

  it('accepts a verdict whose key was made while answering it (iat a moment before not_before)', async () => {
    const fresh = makeKey(`${TENANT}:2026.1`, { notBefore: new Date(now + 1400).toISOString() });
    const jws = signJws(verdictClaims({}, now), fresh);
    await expect(sut(jws, { jwks: { keys: [fresh.jwk] }, now: now + 2000 })).resolves.toMatchObject({ kid: fresh.jwk.kid });
    const err = await failure(sut(jws, { jwks: { keys: [fresh.jwk] }, now: now + 2000, notBeforeToleranceSeconds: 0 }));
    expect(err.code).toBe('key_not_valid_at_iat');
  });

  it.each([
    ['not a JWS', 'malformed'],
    ['a.b', 'malformed'],
  ])('refuses %p with %s', async (jws, code) => {
    expect((await failure(sut(jws, { jwks, now }))).code).toBe(code);
  });

  it('refuses alg none and HS256 with unsupported_alg', async () => {
    const payload = Buffer.from(JSON.stringify(verdictClaims({}, now))).toString('base64url');
    for (const alg of ['none', 'HS256']) {
      const header = Buffer.from(JSON.stringify({ alg, kid: key.jwk.kid })).toString('base64url');
      expect((await failure(sut(`${header}.${payload}.AAAA`, { jwks, now }))).code).toBe('unsupported_alg');
    }
  });

  it('refuses claims of the wrong shape with malformed, naming them', async () => {
    const err = await failure(sut(signJws(verdictClaims({ exp: 'soon', scope: [] }, now), key), { jwks, now }));
    expect(err.code).toBe('malformed');
    expect(err.message).toContain('exp');
    expect(err.message).toContain('scope');
  });

  it('refuses a key of another tenant and a verdict of another tenant with tenant_mismatch', async () => {
    const foreign = makeKey('tnt-other:2026', { notBefore: '2026-01-01T00:00:00.000Z' });
    const err = await failure(sut(signJws(verdictClaims({}, now), foreign), { jwks: { keys: [foreign.jwk] }, now }));
    expect(err.code).toBe('tenant_mismatch');
    const ok = signJws(verdictClaims({}, now), key);
    expect((await failure(sut(ok, { jwks, now, tenantId: 'tnt-other' }))).code).toBe('tenant_mismatch');
  });

  it('fetches the key set by URL once, again at once for an unknown kid, and not again for the same missing kid during the cooldown', async () => {
    let served = [key.jwk];
    const urls: string[] = [];
    const fetch = (async (url: string) => {
      urls.push(url);
      return new Response(JSON.stringify({ keys: served }), { headers: { 'cache-control': 'public, max-age=300, immutable' } });
    }) as typeof globalThis.fetch;
    let clock = now;
    const source = new RemoteJwks('https://verdict.example/v1/tenants/acme/jwks', {
      fetch,
      now: () => clock,
      cooldownMs: 10_000,
      minIntervalMs: 0,
    });
    await sut(signJws(verdictClaims({}, now), key), { jwks: source, now });
    await sut(signJws(verdictClaims({}, now), key), { jwks: source, now });
    expect(urls).toHaveLength(1);

    // A forged kid: looked up once, then not again during the cooldown.
    const forged = signJws(verdictClaims({}, now), makeKey(`${TENANT}:2099`));
    expect((await failure(sut(forged, { jwks: source, now }))).code).toBe('unknown_kid');
    expect((await failure(sut(forged, { jwks: source, now }))).code).toBe('unknown_kid');
    expect(urls).toHaveLength(2);

    // A rotation: the new kid is fetched at once.
    const next = makeKey(`${TENANT}:2026.1`, { notBefore: '2026-02-01T00:00:00.000Z' });
    served = [key.jwk, next.jwk];
    await expect(sut(signJws(verdictClaims({}, now), next), { jwks: source, now })).resolves.toMatchObject({ kid: next.jwk.kid });
    expect(urls).toHaveLength(3);
    clock += 10_000;
    expect((await failure(sut(forged, { jwks: source, now }))).code).toBe('unknown_kid');
    expect(urls).toHaveLength(4);
  });

  it('refetches the key set when its max-age has passed', async () => {
    let fetches = 0;
    const fetch = (async () => {
      fetches++;
      return new Response(JSON.stringify({ keys: [key.jwk] }), { headers: { 'cache-control': 'max-age=60' } });
    }) as unknown as typeof globalThis.fetch;
    let clock = now;
    const source = new RemoteJwks('https://verdict.example/jwks', { fetch, now: () => clock });
    await source.getKeySet();
    clock += 59_000;
    await source.getKeySet();
    expect(fetches).toBe(1);
    clock += 1_000;
    await source.getKeySet();
    expect(fetches).toBe(2);
  });

  it('reports a key set that cannot be fetched with jwks_unavailable', async () => {
    const fetch = (async () => new Response('nope', { status: 503 })) as unknown as typeof globalThis.fetch;
    const err = await failure(sut(signJws(verdictClaims({}, now), key), { jwksUrl: 'https://verdict.example/x/jwks', fetch, now }));
    expect(err.code).toBe('jwks_unavailable');
    expect(err.message).toContain('503');
  });
});

import { AppError } from '@arbiter/http';
import { createHash } from 'node:crypto';
import { apiKeyPrefix, generateApiKey, hashApiKey, isApiKeyFormat, secretsEqual } from './api-keys';
import { Authenticator, credentialFrom } from './authenticate';
import { canAccessScope, hasPermission, type AuthenticatedIdentity } from './identity';
import { mintTenantId } from './tenant-id';
import { CachedKeyResolver, MAX_LOOKUP_ATTEMPTS, parseInvalidation, type InvalidationEvent, type KeyResolver } from './resolver';

function identity(overrides: Partial<AuthenticatedIdentity> = {}): AuthenticatedIdentity {
  return {
    key_id: 'key-1',
    tenant_id: mintTenantId('tnt-a'),
    tenant_slug: 'a',
    principal: { id: 'agn-1', kind: 'agent', name: 'bot', roles: [], active: true },
    permissions: ['read'],
    scope_ids: [],
    expires_at: null,
    rate_limit: null,
    ...overrides,
  };
}

class CountingResolver implements KeyResolver {
  calls = 0;
  constructor(public table: Map<string, AuthenticatedIdentity>) {}
  async resolve(hash: string) {
    this.calls++;
    return this.table.get(hash) ?? null;
  }
}

describe('API keys', () => {
  it('generates ak- keys of 32 random bytes and hashes them with SHA-256', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^ak-[0-9a-f]{64}$/);
    expect(isApiKeyFormat(key)).toBe(true);
    expect(isApiKeyFormat('ak-xyz')).toBe(false);
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 11));
    expect(generateApiKey()).not.toBe(key);
  });

  it('compares secrets of any length', () => {
    expect(secretsEqual('abc', 'abc')).toBe(true);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
  });
});

describe(hasPermission.name, () => {
  it('grants what is held, admin everything in the tenant, platform_admin everything', () => {
    expect(hasPermission({ permissions: ['read'] }, 'read')).toBe(true);
    expect(hasPermission({ permissions: ['read'] }, 'write')).toBe(false);
    expect(hasPermission({ permissions: ['admin'] }, 'manage_rules')).toBe(true);
    expect(hasPermission({ permissions: ['admin'] }, 'platform_admin')).toBe(false);
    expect(hasPermission({ permissions: ['platform_admin'] }, 'seal')).toBe(true);
  });

  it('restricts scope access only when scope_ids is non-empty', () => {
    expect(canAccessScope({ scope_ids: [] }, 'scp-1')).toBe(true);
    expect(canAccessScope({ scope_ids: ['scp-1'] }, 'scp-1')).toBe(true);
    expect(canAccessScope({ scope_ids: ['scp-1'] }, 'scp-2')).toBe(false);
  });
});

describe(credentialFrom.name, () => {
  it('reads Bearer on the registry and X-API-Key elsewhere', () => {
    expect(credentialFrom({ authorization: 'Bearer ak-1' }, 'bearer')).toBe('ak-1');
    expect(credentialFrom({ authorization: 'Basic x' }, 'bearer')).toBeUndefined();
    expect(credentialFrom({ 'x-api-key': 'ak-2' }, 'x-api-key')).toBe('ak-2');
    expect(credentialFrom({ authorization: 'Bearer ak-1' }, 'x-api-key')).toBeUndefined();
  });
});

describe(CachedKeyResolver.name, () => {
  it('caches for at most 30 s even when asked for longer', async () => {
    let now = 0;
    const inner = new CountingResolver(new Map([['h', identity()]]));
    const sut = new CachedKeyResolver(inner, { ttlMs: 600_000, now: () => now });
    await sut.resolve('h');
    now = 29_999;
    await sut.resolve('h');
    expect(inner.calls).toBe(1);
    now = 30_001;
    await sut.resolve('h');
    expect(inner.calls).toBe(2);
  });

  it('forgets a key, a principal or a tenant when told', async () => {
    const inner = new CountingResolver(new Map([['h', identity()]]));
    const sut = new CachedKeyResolver(inner);
    await sut.resolve('h');
    sut.invalidate({ type: 'key', key_hash: 'h' });
    await sut.resolve('h');
    sut.invalidate({ type: 'principal', principal_id: 'agn-1' });
    await sut.resolve('h');
    sut.invalidate({ type: 'tenant', tenant_id: 'tnt-a' });
    await sut.resolve('h');
    sut.invalidate({ type: 'principal', principal_id: 'agn-other' });
    await sut.resolve('h');
    expect(inner.calls).toBe(4);
  });

  describe('an invalidation that arrives while the key is looked up', () => {
    /** A registry whose answer is read when asked but delivered only when `release` is called (the lookup in flight). */
    class SlowResolver implements KeyResolver {
      calls = 0;
      private gates: Array<() => void> = [];
      constructor(public table: Map<string, AuthenticatedIdentity>) {}
      async resolve(hash: string) {
        this.calls++;
        const answer = this.table.get(hash) ?? null;
        await new Promise<void>((r) => this.gates.push(r));
        return answer;
      }
      release() {
        for (const open of this.gates.splice(0)) open();
      }
      async settle() {
        for (let i = 0; i < 5 && !this.gates.length; i++) await new Promise((r) => setImmediate(r));
      }
    }
    const revokedDuring = async (event: InvalidationEvent) => {
      const inner = new SlowResolver(new Map([['h', identity()]]));
      const sut = new CachedKeyResolver(inner);
      const first = sut.resolve('h');
      await inner.settle();
      inner.table.delete('h'); // revoked (or its principal or tenant changed) after the registry answered
      sut.invalidate(event);
      inner.release();
      await inner.settle();
      inner.release();
      return { answer: await first, inner, sut };
    };

    it.each<InvalidationEvent>([
      { type: 'key', key_hash: 'h' },
      { type: 'principal', principal_id: 'agn-1' },
      { type: 'tenant', tenant_id: 'tnt-a' },
      { type: 'all' },
    ])('looks the key up again instead of answering or caching what predates it (%o)', async (event) => {
      const { answer, inner, sut } = await revokedDuring(event);
      expect(answer).toBeNull();
      expect(inner.calls).toBe(2);
      // Nothing stale was cached: the next call asks the registry (the negative answer is cached briefly, as always).
      expect(await sut.resolve('h')).toBeNull();
    });

    it('keeps the answer when the invalidation concerns another key, principal or tenant', async () => {
      for (const event of [
        { type: 'key', key_hash: 'other' },
        { type: 'principal', principal_id: 'agn-other' },
        { type: 'tenant', tenant_id: 'tnt-other' },
      ] as InvalidationEvent[]) {
        const { answer, inner } = await revokedDuring(event);
        expect(answer).not.toBeNull();
        expect(inner.calls).toBe(1);
      }
    });

    it('fails (the service answers unavailable) when every lookup is overtaken by one', async () => {
      const inner = new SlowResolver(new Map([['h', identity()]]));
      const sut = new CachedKeyResolver(inner);
      const answer = sut.resolve('h');
      const outcome = answer.then(
        () => 'answered',
        (err: Error) => err.message,
      );
      for (let i = 0; i < MAX_LOOKUP_ATTEMPTS; i++) {
        await inner.settle();
        sut.invalidate({ type: 'key', key_hash: 'h' });
        inner.release();
      }
      expect(await outcome).toMatch(/overtaken by 3 invalidations/);
      expect(inner.calls).toBe(MAX_LOOKUP_ATTEMPTS);
    });
  });

  it('caches unknown keys only briefly', async () => {
    let now = 0;
    const inner = new CountingResolver(new Map());
    const sut = new CachedKeyResolver(inner, { now: () => now });
    expect(await sut.resolve('h')).toBeNull();
    inner.table.set('h', identity());
    now = 2_500;
    expect(await sut.resolve('h')).not.toBeNull();
  });

  it('ignores garbage invalidation messages', () => {
    expect(parseInvalidation('nope')).toBeNull();
    expect(parseInvalidation('{"type":"evil"}')).toBeNull();
    expect(parseInvalidation('{"type":"key","key_hash":"x"}')).toEqual({ type: 'key', key_hash: 'x' });
  });
});

describe(Authenticator.name, () => {
  const key = generateApiKey();
  const errors = {
    missing: () => new AppError(401, 'missing', 'missing'),
    invalid: () => new AppError(401, 'invalid', 'invalid'),
    deactivated: () => new AppError(403, 'deactivated', 'deactivated'),
    forbidden: (p: string) => new AppError(403, 'forbidden', `missing permission ${p}`),
    unavailable: () => new AppError(503, 'unavailable', 'unavailable'),
  };
  const make = (id: AuthenticatedIdentity | null) =>
    new Authenticator({ resolver: new CountingResolver(new Map(id ? [[hashApiKey(key), id]] : [])), source: 'x-api-key', errors });

  async function codeOf(p: Promise<unknown>) {
    try {
      await p;
      return 'ok';
    } catch (err) {
      return (err as AppError).code;
    }
  }

  it('resolves a valid key with the permission', async () => {
    const sut = make(identity({ permissions: ['check'] }));
    await expect(sut.authenticate({ 'x-api-key': key }, ['check'])).resolves.toMatchObject({ tenant_id: 'tnt-a' });
  });

  it.each([
    ['no key', {}, identity(), 'missing'],
    ['a malformed key', { 'x-api-key': 'nope' }, identity(), 'invalid'],
    ['an unknown key', { 'x-api-key': key }, null, 'invalid'],
    ['an expired key', { 'x-api-key': key }, identity({ expires_at: '2000-01-01T00:00:00Z' }), 'invalid'],
    [
      'a deactivated principal',
      { 'x-api-key': key },
      identity({ principal: { id: 'agn-1', kind: 'agent', name: 'b', roles: [], active: false } }),
      'deactivated',
    ],
    ['a missing permission', { 'x-api-key': key }, identity({ permissions: ['read'] }), 'forbidden'],
  ])('refuses %s', async (_what, headers, id, code) => {
    expect(await codeOf(make(id).authenticate(headers, ['check']))).toBe(code);
  });

  it('answers unavailable when the resolver fails', async () => {
    const sut = new Authenticator({ resolver: { resolve: () => Promise.reject(new Error('down')) }, source: 'x-api-key', errors });
    expect(await codeOf(sut.authenticate({ 'x-api-key': key }))).toBe('unavailable');
  });
});

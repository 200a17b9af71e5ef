import { expectErrorLines, typeDiagnostics } from '@arbiter/testing';
import type { AuthenticatedIdentity, Identity } from './identity';
import { mintTenantId, type TenantId, type TenantOwned } from './tenant-id';

// Compiled by the tests below, never run: what the types refuse, and the ways a TenantId is made.
export function typeLevel(
  plain: string,
  wire: Identity,
  caller: AuthenticatedIdentity,
  take: (t: TenantId) => void,
  act: (c: AuthenticatedIdentity) => void,
): void {
  // @ts-expect-error a plain string is not a TenantId
  take(plain);
  // @ts-expect-error nor is a literal that looks like one
  take('tnt-a');
  // @ts-expect-error the Identity as it travels (a response body) vouches for nothing
  take(wire.tenant_id);
  // @ts-expect-error nor does it pass for an authenticated caller
  act(wire);
  // @ts-expect-error a row with a plain tenant_id is not TenantOwned
  const row: TenantOwned<{ tenant_id: string; id: string }> = { tenant_id: plain, id: 'x' };
  take(caller.tenant_id);
  take(mintTenantId(plain));
  take(row.tenant_id);
  act(caller);
}

describe('TenantId', () => {
  it('compiles where the tenant id is vouched for (mintTenantId, an AuthenticatedIdentity)', () => {
    expect(typeDiagnostics(__filename)).toEqual([]);
  });

  it('refuses each marked line once its @ts-expect-error is gone: a plain string does not compile', () => {
    const errors = typeDiagnostics(__filename, { stripExpectErrors: true });
    expect(errors.map((e) => e.line)).toEqual(expectErrorLines(__filename));
    // Each for the tenant's sake, not for some other mistake on the line.
    expect(errors.filter((e) => !/TenantId|OwnedStream|owned|vouched/.test(e.message))).toEqual([]);
  });

  it('is the plain string at run time', () => {
    expect(mintTenantId('tnt-a')).toBe('tnt-a');
  });
});

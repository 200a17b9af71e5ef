/**
 * Tenant scoping carried by types (docs/development.md "Conventions": every repository query is
 * filtered by tenant). A repository method that reads or writes one tenant's rows takes a
 * TenantId, and a plain string does not compile there: the caller must hold an id that the
 * authentication layer or the database vouched for.
 */
declare const vouched: unique symbol;

/** A tenant id that authentication or a database row vouched for; at run time, the plain string. */
export type TenantId = string & { readonly [vouched]: true };

/**
 * The one way to make a TenantId, called only at a trust boundary: where the id comes from an
 * authenticated credential (an API key's row, the registry's introspection answer over the
 * internal token, a session cookie's row), from a call that passed the internal-token check, or
 * from a row the database returned. `grep -rn mintTenantId apps libs` lists every such place.
 */
export function mintTenantId(id: string): TenantId {
  return id as TenantId;
}

/** A row whose tenant_id is vouched for (read with the tenant's id, or minted at a boundary). */
export type TenantOwned<T extends { tenant_id: string }> = T & { tenant_id: TenantId };

/**
 * A one-time console sign-in link for the bootstrap admin (docs/identity.md "Console sign-in"), through the registry's
 * public API with the admin key: the key's principal is found by the key's displayed prefix among the tenant's keys.
 * Answers the link, or the reason there is none (the banner says it; the stack keeps running).
 */
export async function bootstrapConsoleLink(registryUrl: string, adminKey: string): Promise<{ url: string } | { error: string }> {
  const auth = { authorization: `Bearer ${adminKey}`, accept: 'application/json' };
  try {
    const keys = await fetch(`${registryUrl}/api/v1/api-keys?limit=1000`, { headers: auth });
    if (!keys.ok) return { error: `listing the admin's keys answered ${keys.status}` };
    const items = ((await keys.json()) as { items: { key_prefix: string; principal_id: string; status: string }[] }).items;
    const own = items.find((k) => k.status === 'active' && k.key_prefix === adminKey.slice(0, 11));
    if (!own) return { error: 'the admin key is not among its tenant’s keys' };
    const link = await fetch(`${registryUrl}/api/v1/principals/${own.principal_id}/console-links`, { method: 'POST', headers: auth });
    if (link.status !== 201) return { error: `creating the link answered ${link.status}` };
    return { url: ((await link.json()) as { url: string }).url };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

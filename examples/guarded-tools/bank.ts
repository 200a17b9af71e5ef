// What the two framework examples share (docs/agents.md "Framework adapters"): a pretend bank whose
// tools an agent may call, the rules Arbiter holds about them, and a tenant to try them in.
import { createRegistryClient, createVerdictClient, type VerdictClient } from '@arbiter/client';

export interface Transfer {
  from: string;
  to: string;
  amount: number;
}

/** The bank's own operations: what the guarded tools run once Arbiter allows them. */
export const bank = {
  balance: async ({ account }: { account: string }) => `${account}: 25000 EUR`,
  transfer: async ({ from, to, amount }: Transfer) => `transferred ${amount} EUR from ${from} to ${to}`,
};

/** How each tool call is known to the rules: action, resource and scope. */
export const mappings = {
  balance: { action: 'bank.balance', resource: (i: { account: string }) => `acct:${i.account}`, scope: { region: 'eu' } },
  transfer: { action: 'bank.transfer', resource: (i: Transfer) => `acct:${i.from}`, scope: { region: 'eu' } },
};

/** The calls a dry run makes (no model): one allowed, one blocked, one that needs an approval. */
export const DRY_RUN_CALLS = [
  { tool: 'balance', input: { account: 'acct-1' } },
  { tool: 'transfer', input: { from: 'acct-1', to: 'offshore-7', amount: 50 } },
  { tool: 'transfer', input: { from: 'acct-1', to: 'acct-2', amount: 5000 } },
] as const;

export const PROMPT = 'Check the balance of acct-1, then move 5000 EUR from acct-1 to acct-2 and 50 EUR to offshore-7.';

/**
 * A tenant with the bank's rules (offshore transfers blocked, transfers above 1,000 EUR need finance's
 * approval) and an agent key, made through the registry with a platform admin key. One tenant serves every
 * run (found by its slug; its principals, scope and rules by name): each run makes its own keys, and
 * `cleanUp` revokes them.
 */
export async function provisionBankTenant(registryUrl: string, adminKey: string, slug = 'bank-demo') {
  const admin = createRegistryClient({ baseUrl: registryUrl, apiKey: adminKey });
  const found = (await admin.all((cursor) => admin.listTenants({ cursor, limit: 1000 }))).find((t) => t.slug === slug);
  const tenant =
    found ??
    (await admin.createTenant({
      name: 'Guarded tools demo',
      slug,
      settings: { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } } },
    }));
  const principals = await admin.all((cursor) => admin.listPrincipals({ cursor, limit: 1000, tenant_id: tenant.id }));
  const principal = async (kind: 'agent' | 'human', name: string) =>
    principals.find((p) => p.kind === kind && p.name === name)?.id ??
    (await admin.createPrincipal({ kind, name, tenant_id: tenant.id })).id;
  const owner = await admin.createApiKey({
    principal_id: await principal('human', 'demo admin'),
    permissions: ['admin'],
    tenant_id: tenant.id,
  });
  const reg = createRegistryClient({ baseUrl: registryUrl, apiKey: owner.key });
  const eu =
    (await reg.all((cursor) => reg.listScopes({ cursor, limit: 1000 }))).find((x) => x.name === 'bank') ??
    (await reg.createScope({ name: 'bank', selector: { region: 'eu' } }));
  const existing = new Set((await reg.listRules(eu.id)).map((r) => r.directive));
  const rules: Parameters<typeof reg.createRule>[1][] = [
    {
      directive: 'No transfers to offshore accounts',
      severity: 'MANDATORY',
      applies_to: { actions: ['bank.transfer'] },
      conditions: [{ field: 'to', op: 'starts_with', value: 'offshore-' }],
    },
    {
      directive: 'Transfers above 1,000 EUR need approval from finance',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['bank.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
      // A number, or the check asks for one: "5000" as a string would make the condition false.
      requires: [{ field: 'amount', type: 'number', reason: 'the amount in EUR, a number' }],
      deciders: ['role-finance'],
    },
  ];
  for (const rule of rules) if (!existing.has(rule.directive)) await reg.createRule(eu.id, rule);
  const agent = await reg.createApiKey({ principal_id: await principal('agent', 'bank-agent'), permissions: ['check', 'read'] });
  const cleanUp = async () => {
    for (const key of [agent, owner]) await admin.revokeApiKey(key.id);
  };
  return { tenant: tenant.id, agentKey: agent.key, created: !found, cleanUp };
}

/**
 * The tenant and key from the environment (examples/run.mjs fills them in from the demo tenant of `arbiter quickstart`,
 * which has these rules: the examples then reuse it), or a new demo tenant when only ARBITER_ADMIN_KEY is given.
 */
export async function tenantFromEnv(
  log: (line: string) => void,
): Promise<{ verdictUrl: string; tenant: string; agentKey: string; cleanUp?: () => Promise<void> }> {
  const env = process.env;
  const verdictUrl = env.ARBITER_VERDICT_URL ?? 'http://127.0.0.1:3002';
  if (env.ARBITER_TENANT && env.ARBITER_AGENT_KEY) {
    log(`demo tenant ${env.ARBITER_TENANT}`);
    return { verdictUrl, tenant: env.ARBITER_TENANT, agentKey: env.ARBITER_AGENT_KEY };
  }
  if (!env.ARBITER_ADMIN_KEY)
    throw new Error(
      'run arbiter quickstart first (its demo tenant is used), or set ARBITER_TENANT and ARBITER_AGENT_KEY, or ARBITER_ADMIN_KEY to provision a tenant of its own',
    );
  const made = await provisionBankTenant(env.ARBITER_REGISTRY_URL ?? 'http://127.0.0.1:3001', env.ARBITER_ADMIN_KEY);
  log(`${made.created ? 'provisioned' : 'reused'} demo tenant ${made.tenant} (bank-demo)`);
  return { verdictUrl, tenant: made.tenant, agentKey: made.agentKey, cleanUp: made.cleanUp };
}

/** Runs `fn` with the agent's verdict client in the demo tenant (tenantFromEnv), then revokes the keys a provisioned tenant's run made. */
export async function withDemoTenant(log: (line: string) => void, fn: (arbiter: VerdictClient) => Promise<void>): Promise<void> {
  const { verdictUrl, tenant, agentKey, cleanUp } = await tenantFromEnv(log);
  try {
    await fn(createVerdictClient({ baseUrl: verdictUrl, apiKey: agentKey, tenant }));
  } finally {
    await cleanUp?.();
  }
}

// The demo tenant the doc samples run in, with the variables of `.data/quickstart.env` (docs/development.md
// "Doc samples"): what `arbiter quickstart` makes, provisioned here through the SDK.
import { createRegistryClient } from '@arbiter/client';
import type { TestStack } from '../stack';

/** The quickstart file's variables, every one of which a doc sample may use. */
export const QUICKSTART_VARIABLES = [
  'ARBITER_REGISTRY_URL',
  'ARBITER_VERDICT_URL',
  'ARBITER_LEDGER_URL',
  'ARBITER_TENANT',
  'ARBITER_TENANT_SLUG',
  'ARBITER_API_KEY',
  'ARBITER_AGENT_KEY',
  'ARBITER_APPROVER_KEY',
  'ARBITER_RULES_KEY',
  'ARBITER_TENANT_ADMIN_KEY',
  'ARBITER_SCOPE_ID',
  'ARBITER_AGENT_ID',
  'ARBITER_APPROVER_ID',
  'ARBITER_TENANT_ADMIN_ID',
] as const;

export type QuickstartEnv = Record<(typeof QUICKSTART_VARIABLES)[number], string>;

/**
 * A tenant with an agent (check, read: ARBITER_AGENT_KEY, and ARBITER_API_KEY), a human approver holding
 * role-finance (approve, read), a tenant admin (admin; and read, manage_rules: ARBITER_RULES_KEY), the scope
 * {region: eu} and three rules in it: one allows, one blocks, one needs an approval.
 */
export async function provisionQuickstart(stack: TestStack): Promise<QuickstartEnv> {
  const platform = createRegistryClient({ baseUrl: stack.registry.url, apiKey: stack.registry.adminKey });
  const tenant = await platform.createTenant({
    name: 'Quickstart demo',
    slug: 'quickstart',
    settings: { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } } },
  });
  const owner = await platform.createPrincipal({ kind: 'human', name: 'quickstart-admin', tenant_id: tenant.id });
  const adminKey = (await platform.createApiKey({ principal_id: owner.id, permissions: ['admin'], tenant_id: tenant.id })).key;
  const admin = createRegistryClient({ baseUrl: stack.registry.url, apiKey: adminKey });
  const scope = await admin.createScope({ name: 'quickstart', selector: { region: 'eu' } });
  await admin.createRule(scope.id, { directive: 'Balance reads are allowed', severity: 'ALLOW', applies_to: { actions: ['bank.balance'] } });
  await admin.createRule(scope.id, {
    directive: 'No transfers to offshore accounts',
    severity: 'MANDATORY',
    applies_to: { actions: ['bank.transfer'] },
    conditions: [{ field: 'to', op: 'starts_with', value: 'offshore-' }],
  });
  await admin.createRule(scope.id, {
    directive: 'Transfers above 1,000 EUR need approval from finance',
    severity: 'REQUIRES_APPROVAL',
    applies_to: { actions: ['bank.transfer'] },
    conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
    deciders: ['role-finance'],
  });
  const agent = await admin.createPrincipal({ kind: 'agent', name: 'quickstart-agent' });
  const approver = await admin.createPrincipal({ kind: 'human', name: 'quickstart-approver', roles: ['role-finance'] });
  const keyOf = async (principal_id: string, permissions: string[]) => (await admin.createApiKey({ principal_id, permissions })).key;
  const agentKey = await keyOf(agent.id, ['check', 'read']);
  return {
    ARBITER_REGISTRY_URL: stack.registry.url,
    ARBITER_VERDICT_URL: stack.verdict.url,
    ARBITER_LEDGER_URL: stack.ledger.url,
    ARBITER_TENANT: tenant.id,
    ARBITER_TENANT_SLUG: tenant.slug,
    ARBITER_API_KEY: agentKey,
    ARBITER_AGENT_KEY: agentKey,
    ARBITER_APPROVER_KEY: await keyOf(approver.id, ['approve', 'read']),
    ARBITER_RULES_KEY: await keyOf(owner.id, ['manage_rules', 'read']),
    ARBITER_TENANT_ADMIN_KEY: adminKey,
    ARBITER_SCOPE_ID: scope.id,
    ARBITER_AGENT_ID: agent.id,
    ARBITER_APPROVER_ID: approver.id,
    ARBITER_TENANT_ADMIN_ID: owner.id,
  };
}

// Shared by the SDK and CLI end-to-end tests (on a stack of ./stack.ts): a tenant provisioned through
// the SDK itself (registry client): the rules of docs/verdicts.md's resolve example, an agent, a CFO
// who decides approvals, and a tenant admin.
import { randomUUID } from 'node:crypto';
import { createRegistryClient, createVerdictClient, createLedgerClient } from '@arbiter/client';
import type { Stack } from './stack';

jest.setTimeout(120_000);

export interface SdkTenant {
  id: string;
  slug: string;
  /** A tenant admin (verdict key rotation, rules). */
  adminKey: string;
  /** An agent: check, read. */
  agentKey: string;
  /** A human holding role-cfo: approve, read. */
  cfoKey: string;
  cfoId: string;
  rules: { sanctions: string; large: string };
}

export const SCOPE_SCHEMA = { fields: { region: { allowed_values: ['eu', 'us'] } } };

export async function provisionTenant(stack: Stack, prefix: string): Promise<SdkTenant> {
  const platform = createRegistryClient({ baseUrl: stack.registry.url, apiKey: stack.registry.adminKey });
  const slug = `${prefix}-${randomUUID().slice(0, 8)}`;
  const tenant = await platform.createTenant({ name: slug, slug, settings: { scope_schema: SCOPE_SCHEMA } });
  const admin = await platform.createPrincipal({ kind: 'human', name: 'admin', tenant_id: tenant.id });
  const adminKey = (await platform.createApiKey({ principal_id: admin.id, permissions: ['admin'], tenant_id: tenant.id })).key;
  const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: adminKey });
  const all = await reg.createScope({ name: 'all' });
  const eu = await reg.createScope({ name: 'eu', selector: { region: 'eu' } });
  const sanctions = await reg.createRule(all.id, {
    directive: 'No transfers to sanctioned countries',
    severity: 'MANDATORY',
    applies_to: { actions: ['payments.transfer'] },
    conditions: [{ field: 'beneficiary.country', op: 'in', value: ['CU', 'IR', 'KP', 'SY'] }],
    requires: [
      {
        field: 'beneficiary.country',
        type: 'string',
        format: 'iso-country',
        source_requirement: 'verified',
        reason: 'sanctions screening',
      },
    ],
  });
  const large = await reg.createRule(eu.id, {
    directive: 'Transfers above 10,000 EUR need CFO approval',
    severity: 'REQUIRES_APPROVAL',
    applies_to: { actions: ['payments.transfer'] },
    conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
    deciders: ['role-cfo'],
  });
  const agent = await reg.createPrincipal({ kind: 'agent', name: 'payments-bot' });
  const cfo = await reg.createPrincipal({ kind: 'human', name: 'cfo', roles: ['role-cfo'] });
  const agentKey = (await reg.createApiKey({ principal_id: agent.id, permissions: ['check', 'read', 'seal'] })).key;
  const cfoKey = (await reg.createApiKey({ principal_id: cfo.id, permissions: ['approve', 'read'] })).key;
  return {
    id: tenant.id,
    slug: tenant.slug,
    adminKey,
    agentKey,
    cfoKey,
    cfoId: cfo.id,
    rules: { sanctions: sanctions.id, large: large.id },
  };
}

export const verdictAs = (stack: Stack, key: string, tenant: string) =>
  createVerdictClient({ baseUrl: stack.verdict.url, apiKey: key, tenant });
export const ledgerAs = (stack: Stack, key?: string) => createLedgerClient({ baseUrl: stack.ledger.url, apiKey: key });

/** The operation of the tests: a transfer in the EU, with a verified beneficiary country. */
export function transfer(amount: number, country = 'DE') {
  return {
    action: 'payments.transfer',
    resource: 'acct:eu/4471',
    scope: { region: 'eu' },
    parameters: { transfer: { amount } },
    context: { 'beneficiary.country': { value: country, source: 'kyc-provider', verification_status: 'verified' as const } },
  };
}

// Shared by the SDK and CLI end-to-end tests: the services on fresh databases (startTestStack), and a
// tenant provisioned through the SDK itself (registry client): the rules of docs/verdicts.md's resolve
// example, an agent, a CFO who decides approvals, and a tenant admin.
import { randomUUID } from 'node:crypto';
import { createRegistryClient, createVerdictClient, createLedgerClient } from '@arbiter/client';
import verdictSpec from '../../apps/verdict/openapi.json';
import type { TestStack } from './stack';

jest.setTimeout(120_000);

/**
 * Verdict approvals are exercised only when the verdict service documents them: until then the
 * tests that need them are skipped (with this reason in their names), and libs/client tests them
 * against a local server with the verdict contract's shapes.
 */
export const VERDICT_APPROVALS = Boolean((verdictSpec.paths as Record<string, unknown>)['/{tenant_id}/v1/approvals']);
export const itWithApprovals: jest.It = VERDICT_APPROVALS ? it : it.skip;
export const APPROVALS_GUARD = VERDICT_APPROVALS ? '' : ' [skipped: verdict approvals are not in apps/verdict/openapi.json yet]';

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

export async function provisionTenant(stack: TestStack, prefix: string): Promise<SdkTenant> {
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
    requires: [{ field: 'beneficiary.country', type: 'string', format: 'iso-country', source_requirement: 'verified', reason: 'sanctions screening' }],
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
  return { id: tenant.id, slug: tenant.slug, adminKey, agentKey, cfoKey, cfoId: cfo.id, rules: { sanctions: sanctions.id, large: large.id } };
}

export const verdictAs = (stack: TestStack, key: string, tenant: string) => createVerdictClient({ baseUrl: stack.verdict.url, apiKey: key, tenant });
export const ledgerAs = (stack: TestStack, key?: string) => createLedgerClient({ baseUrl: stack.ledger.url, apiKey: key });

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

/** Retries `fn` until it returns a value other than undefined (services converge within moments). */
export async function eventually<T>(fn: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

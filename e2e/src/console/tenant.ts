// The tenant the console's browser tests decide in (docs/console.md "Browser tests"): a scope with a rule that needs
// finance's approval, one more that needs two approvals, an agent that checks payments for a human, and finance
// people who sign in to the console.
import { createVerdictClient, type VerdictClient } from '@arbiter/client';
import request from 'supertest';
import { createVerdictTenant, registryApi, type VerdictTenant } from '../verdict-harness';
import type { Stack } from '../stack';
import { createConsoleUser } from './browser';

export interface ConsoleTenant extends VerdictTenant {
  scopeId: string;
  /** REQUIRES_APPROVAL for payments.transfer above 10,000, deciders role-finance. */
  ruleId: string;
  /** REQUIRES_APPROVAL for payments.payout, deciders role-finance, approvals_required 2. */
  quorumRuleId: string;
  /** Console users holding role-finance with read and approve. */
  finance: { id: string }[];
  /** The agent's SDK client. */
  agentClient: VerdictClient;
}

export const RULE_STATEMENT = 'Transfers above 10,000 need finance approval';

export async function createConsoleTenant(stack: Stack, slug: string, financeCount = 2): Promise<ConsoleTenant> {
  const t = await createVerdictTenant(stack, slug);
  const reg = registryApi(stack, t.adminKey);
  const scopeId = await reg.scope('eu payments', { region: 'eu' });
  const rule = await reg.rule(scopeId, {
    directive: RULE_STATEMENT,
    severity: 'REQUIRES_APPROVAL',
    applies_to: { actions: ['payments.transfer'] },
    conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
    deciders: ['role-finance'],
  });
  const quorum = await reg.rule(scopeId, {
    directive: 'Payouts need two people from finance',
    severity: 'REQUIRES_APPROVAL',
    applies_to: { actions: ['payments.payout'] },
    deciders: ['role-finance'],
    approvals_required: 2,
  });
  const finance = [];
  for (let i = 0; i < financeCount; i++)
    finance.push(
      await createConsoleUser(stack, t.adminKey, {
        name: `Finance ${i + 1}`,
        roles: ['role-finance'],
        consolePermissions: ['read', 'approve'],
      }),
    );
  return {
    ...t,
    scopeId,
    ruleId: rule.id,
    quorumRuleId: quorum.id,
    finance,
    agentClient: createVerdictClient({ baseUrl: stack.verdict.url, apiKey: t.agent.key, tenant: t.id }),
  };
}

/** An operation the agent checks, approval_required by the finance rule (or the quorum rule for payments.payout). */
export function payment(t: VerdictTenant, over: { action?: string; resource?: string; parameters?: Record<string, unknown> } = {}) {
  return {
    action: over.action ?? 'payments.transfer',
    resource: over.resource ?? 'acct:eu/4471',
    scope: { region: 'eu', env: 'prod' },
    parameters: over.parameters ?? { transfer: { amount: 25000, currency: 'EUR' } },
    on_behalf_of: t.humanId,
  };
}

/** The agent's check (approval_required) and the approval it opens, through the SDK. */
export async function requestApproval(
  t: ConsoleTenant,
  op: ReturnType<typeof payment>,
  notes = 'quarter-end supplier invoice',
): Promise<string> {
  const checked = await t.agentClient.check(op);
  if (checked.verdict !== 'approval_required') throw new Error(`expected approval_required, got ${checked.verdict}`);
  const approval = await t.agentClient.createApproval({ consultation_id: checked.consultation_id, requester_notes: notes });
  return approval.id;
}

/** A registry approval of the finance rule, asked by the tenant admin through the public API. */
export async function requestRegistryApproval(
  stack: Stack,
  t: ConsoleTenant,
  intendedAction: string,
  justification: string,
): Promise<string> {
  const answer = await request(stack.registry.url)
    .post(`/api/v1/scopes/${t.scopeId}/approvals`)
    .set('Authorization', `Bearer ${t.adminKey}`)
    .send({ trigger_id: t.ruleId, intended_action: intendedAction, justification, requested_by: 'ops on-call' });
  if (answer.status !== 201) throw new Error(`registry approval: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.id;
}

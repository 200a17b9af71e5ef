// An agent that asks Arbiter before it acts, using only the SDK (@arbiter/client, docs/sdk.md):
//
//   1. resolve: the gateway asks for the context that can change the verdict; the agent supplies it
//      (an unverified country is not enough: the fact provider fetches a verified one);
//   2. the verdict is approval_required: the agent requests an approval and waits;
//   3. a human principal (a CFO, simulated here by a second key) approves with a one-hour grant;
//   4. the agent checks again, gets `allowed`, verifies the signed verdict, and acts.
//
// Against `npm start` (docs/sdk.md, "The agent loop example"):
//   ARBITER_ADMIN_KEY=ak-… node examples/run.mjs agent-loop          # in a demo tenant, reused by every run
//   ARBITER_TENANT=… ARBITER_AGENT_KEY=ak-… ARBITER_DECIDER_KEY=ak-… node examples/run.mjs agent-loop
// Base URLs: ARBITER_REGISTRY_URL (http://127.0.0.1:3001), ARBITER_VERDICT_URL (http://127.0.0.1:3002).
import {
  createRegistryClient,
  createVerdictClient,
  requestApprovalAndWait,
  resolveUntilComplete,
  verifyVerdict,
  type Approval,
  type Context,
  type Fact,
  type Requirement,
  type VerdictClaims,
} from '@arbiter/client';

export interface AgentLoopConfig {
  verdictUrl: string;
  tenant: string;
  /** Key of the agent principal: `check` and `read`. */
  agentKey: string;
  /** Key of a human principal holding role-cfo and `approve`. */
  deciderKey: string;
  log?: (line: string) => void;
}

export interface AgentLoopResult {
  firstVerdict: string;
  rounds: number;
  approval: Approval;
  finalClaims: VerdictClaims;
}

/** The operation the agent wants to perform. */
const OPERATION = { action: 'payments.transfer', resource: 'acct:eu/4471', scope: { region: 'eu' } } as const;
const TRANSFER = { amount: 25000, currency: 'EUR', beneficiary_country: 'DE' };

/**
 * The agent's knowledge, as Facts. It answers every Requirement it can, the way the Requirement asks:
 * a field that must be verified comes from the KYC provider (verification_status verified).
 */
function provideFacts(requirements: Requirement[]): Context {
  const facts: Context = {};
  for (const r of requirements) {
    const fact: Fact | undefined =
      r.field === 'transfer.amount'
        ? { value: TRANSFER.amount, source: 'agent' }
        : r.field === 'beneficiary.country'
          ? {
              value: TRANSFER.beneficiary_country,
              source: r.source_requirement === 'verified' ? 'kyc-provider' : 'agent',
              ...(r.source_requirement === 'verified' ? { verification_status: 'verified' as const } : {}),
            }
          : undefined;
    if (fact) facts[r.field] = fact;
  }
  return facts;
}

/** The human side: the CFO's inbox, approving what is pending for role-cfo with a one-hour grant. */
async function humanApproves(
  verdictUrl: string,
  tenant: string,
  deciderKey: string,
  consultationId: string,
  log: (l: string) => void,
): Promise<void> {
  const cfo = createVerdictClient({ baseUrl: verdictUrl, apiKey: deciderKey, tenant });
  for (let attempt = 0; attempt < 200; attempt++) {
    const pending = (await cfo.listApprovals({ status: 'pending', assignee: 'role-cfo' })).items.find(
      (a) => a.consultation_id === consultationId,
    );
    if (pending) {
      log(
        `human: approving ${pending.id} (${pending.intended_action} on ${pending.intended_resource}: ${pending.triggers.map((t) => t.reason).join('; ')})`,
      );
      await cfo.decideApproval(pending.id, {
        decision: 'approve',
        decider_notes: 'invoice checked',
        grant: { applies_to_scope: { region: 'eu' }, expires_at: new Date(Date.now() + 3_600_000).toISOString() },
      });
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the approval never reached the decider');
}

export async function runAgentLoop(cfg: AgentLoopConfig): Promise<AgentLoopResult> {
  const log = cfg.log ?? (() => undefined);
  const verdict = createVerdictClient({ baseUrl: cfg.verdictUrl, apiKey: cfg.agentKey, tenant: cfg.tenant });

  // 1. Resolve until the gateway has what it needs.
  const { response, rounds } = await resolveUntilComplete(verdict, { ...OPERATION, context: {} }, provideFacts, {
    onRound: (r) => log(`agent: round ${r.round} asked for ${r.requirements.map((q) => q.field).join(', ')}; sent ${r.sent.join(', ')}`),
  });
  log(`agent: verdict ${response.verdict} after ${rounds} rounds (consultation ${response.consultation_id})`);
  if (response.verdict !== 'approval_required') throw new Error(`expected approval_required, got ${response.verdict}`);

  // 2 and 3. Ask for an approval and wait for the human's decision.
  const [approval] = await Promise.all([
    requestApprovalAndWait(
      verdict,
      { consultation_id: response.consultation_id, requester_notes: 'quarter-end supplier invoice' },
      { pollMs: { initialMs: 100, maxMs: 1000 }, timeoutMs: 60_000 },
    ),
    humanApproves(cfg.verdictUrl, cfg.tenant, cfg.deciderKey, response.consultation_id, log),
  ]);
  log(`agent: approval ${approval.id} ${approval.status} by ${approval.decider}`);
  if (approval.status !== 'approved') throw new Error(`approval ${approval.id} was ${approval.status}`);

  // 4. Check again: the grant neutralises the approval rule for this scope. The gateway's rule snapshot
  //    follows the registry within moments, so a still-pending view is retried briefly.
  const request = {
    ...OPERATION,
    parameters: { transfer: { amount: TRANSFER.amount } },
    context: {
      'beneficiary.country': provideFacts([{ field: 'beneficiary.country', reason: '', type: 'string', source_requirement: 'verified' }])[
        'beneficiary.country'
      ],
    },
  };
  let checked = await verdict.check(request);
  for (let i = 0; checked.verdict === 'approval_required' && i < 20; i++) {
    await new Promise((r) => setTimeout(r, 250));
    checked = await verdict.check(request);
  }
  const { claims } = await verifyVerdict(checked.signed_verdict, { jwksUrl: await verdict.jwksUrl(), tenantId: approval.tenant_id });
  if (claims.verdict !== 'allowed') throw new Error(`the check after approval answered ${claims.verdict}`);
  log(
    `agent: ${claims.verdict} (consultation ${claims.jti}, valid until ${new Date(claims.exp * 1000).toISOString()}): transferring ${TRANSFER.amount} ${TRANSFER.currency}`,
  );
  return { firstVerdict: response.verdict, rounds, approval, finalClaims: claims };
}

export interface DemoTenant {
  tenant: string;
  slug: string;
  agentKey: string;
  deciderKey: string;
  /** false when an earlier run made the tenant and this one reused it. */
  created: boolean;
  /** Revokes this run's keys and the override of the approval's grant, so the next run starts as this one did. */
  cleanUp(approval?: Approval): Promise<void>;
}

/**
 * For a quick start against `npm start`: a tenant with the rules of docs/verdicts.md's resolve example, an
 * agent key and a CFO key, made through the registry with a platform admin key. One tenant serves every run
 * (found by its slug; its principals, scopes and rules by name): each run makes its own keys and cleans up
 * after itself with cleanUp().
 */
export async function provisionDemoTenant(registryUrl: string, adminKey: string, slug = 'agent-loop-demo'): Promise<DemoTenant> {
  const admin = createRegistryClient({ baseUrl: registryUrl, apiKey: adminKey });
  const found = (await admin.all((cursor) => admin.listTenants({ cursor, limit: 1000 }))).find((t) => t.slug === slug);
  const tenant =
    found ??
    (await admin.createTenant({
      name: 'Agent loop demo',
      slug,
      settings: { scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } } },
    }));
  const principals = await admin.all((cursor) => admin.listPrincipals({ cursor, limit: 1000, tenant_id: tenant.id }));
  const principal = async (kind: 'agent' | 'human', name: string, roles: string[] = []) =>
    principals.find((p) => p.kind === kind && p.name === name)?.id ??
    (await admin.createPrincipal({ kind, name, roles, tenant_id: tenant.id })).id;
  type Permission = Parameters<typeof admin.createApiKey>[0]['permissions'][number];
  const keyOf = async (principalId: string, permissions: Permission[]) =>
    admin.createApiKey({ principal_id: principalId, permissions, tenant_id: tenant.id });
  const owner = await keyOf(await principal('human', 'demo admin'), ['admin']);
  const reg = createRegistryClient({ baseUrl: registryUrl, apiKey: owner.key });
  const scopes = await reg.all((cursor) => reg.listScopes({ cursor, limit: 1000 }));
  const all = scopes.find((x) => x.name === 'all') ?? (await reg.createScope({ name: 'all' }));
  const eu = scopes.find((x) => x.name === 'eu') ?? (await reg.createScope({ name: 'eu', selector: { region: 'eu' } }));
  const rule = async (scopeId: string, body: Parameters<typeof reg.createRule>[1]) => {
    if (!(await reg.listRules(scopeId)).some((r) => r.directive === body.directive)) await reg.createRule(scopeId, body);
  };
  await rule(all.id, {
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
  await rule(eu.id, {
    directive: 'Transfers above 10,000 EUR need CFO approval',
    severity: 'REQUIRES_APPROVAL',
    applies_to: { actions: ['payments.transfer'] },
    conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
    deciders: ['role-cfo'],
  });
  const agent = await keyOf(await principal('agent', 'payments-bot'), ['check', 'read']);
  const cfo = await keyOf(await principal('human', 'the CFO', ['role-cfo']), ['approve', 'read']);
  const cleanUp = async (approval?: Approval) => {
    // The grant's override would let the next run's transfer through for an hour, with no approval asked.
    for (const grant of approval?.grants ?? []) {
      for (const scope of [eu, all])
        if (
          await reg.revokeOverride(scope.id, grant.override_id).then(
            () => true,
            () => false,
          )
        )
          break;
    }
    for (const key of [agent, cfo, owner]) await admin.revokeApiKey(key.id);
  };
  return { tenant: tenant.id, slug: tenant.slug, agentKey: agent.key, deciderKey: cfo.key, created: !found, cleanUp };
}

async function main(): Promise<void> {
  const env = process.env;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const registryUrl = env.ARBITER_REGISTRY_URL ?? 'http://127.0.0.1:3001';
  const verdictUrl = env.ARBITER_VERDICT_URL ?? 'http://127.0.0.1:3002';
  const { ARBITER_TENANT: tenant, ARBITER_AGENT_KEY: agentKey, ARBITER_DECIDER_KEY: deciderKey } = env;
  if (tenant && agentKey && deciderKey) {
    await runAgentLoop({ verdictUrl, tenant, agentKey, deciderKey, log });
    return;
  }
  if (!env.ARBITER_ADMIN_KEY)
    throw new Error('set ARBITER_ADMIN_KEY (to provision a demo tenant), or ARBITER_TENANT, ARBITER_AGENT_KEY and ARBITER_DECIDER_KEY');
  const demo = await provisionDemoTenant(registryUrl, env.ARBITER_ADMIN_KEY);
  log(`${demo.created ? 'provisioned' : 'reused'} demo tenant ${demo.tenant} (${demo.slug})`);
  let approval: Approval | undefined;
  try {
    approval = (await runAgentLoop({ verdictUrl, tenant: demo.tenant, agentKey: demo.agentKey, deciderKey: demo.deciderKey, log }))
      .approval;
  } finally {
    await demo.cleanUp(approval);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`agent-loop: ${(err as Error).message}\n`);
    process.exitCode = 1;
  });
}

import { randomUUID } from 'node:crypto';
import { createRegistryClient, REGISTRY_OPERATIONS, RegistryError, type RegistryClient } from '@arbiter/client';
import registrySpec from '../../apps/registry/openapi.json';
import type { RegistryHarness } from '../../apps/registry/test/harness';
import { startStack, type Stack } from './stack';

/**
 * The SDK's registry client against a real registry (PostgreSQL, Redis): every resource group of
 * apps/registry/openapi.json once through its typed method, and refusals as RegistryError.
 */
describe('@arbiter/client registry client against the running registry', () => {
  let stack: Stack;
  let h: RegistryHarness;
  let platform: RegistryClient;
  let admin: RegistryClient;
  let tenantId: string;
  let adminId: string;
  let scopeId: string;
  const as = (apiKey: string) => createRegistryClient({ baseUrl: h.url, apiKey });
  const failure = (pending: Promise<unknown>) =>
    pending.then(
      () => undefined,
      (e: unknown) => e,
    );

  beforeAll(async () => {
    stack = await startStack();
    h = stack.registry;
    platform = as(h.adminKey);
    const slug = `sdkreg-${randomUUID().slice(0, 8)}`;
    tenantId = (await platform.createTenant({ name: slug, slug })).id;
    adminId = (await platform.createPrincipal({ kind: 'human', name: 'admin', tenant_id: tenantId })).id;
    admin = as((await platform.createApiKey({ principal_id: adminId, permissions: ['admin'], tenant_id: tenantId })).key);
    scopeId = (await admin.createScope({ name: 'ops', selector: { region: 'eu' } })).id;
  });
  afterAll(() => stack?.stop());

  it('has a method for every operation of the registry document', () => {
    const documented = Object.values(registrySpec.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((ops) => Object.values(ops).map((op) => op.operationId))
      .filter((id): id is string => typeof id === 'string')
      .sort();
    expect(Object.keys(REGISTRY_OPERATIONS).sort()).toEqual(documented);
    for (const method of Object.values(REGISTRY_OPERATIONS)) expect(typeof admin[method]).toBe('function');
  });

  it('tenants: lists, reads and renames, a platform admin seeing every tenant and a tenant admin its own', async () => {
    const renamed = await admin.updateTenant(tenantId, { name: 'Ops Inc' });
    expect(renamed).toMatchObject({ id: tenantId, name: 'Ops Inc' });
    expect(await platform.getTenant(tenantId)).toMatchObject({ id: tenantId, name: 'Ops Inc' });
    expect((await admin.listTenants()).items.map((t) => t.id)).toEqual([tenantId]);
    const everyTenant = await platform.all((cursor) => platform.listTenants({ cursor, limit: 1 }));
    expect(everyTenant.map((t) => t.id)).toContain(tenantId);
  });

  it('principals and API keys: create, list, deactivate, revoke; the plaintext key only at creation', async () => {
    const bot = await admin.createPrincipal({ kind: 'agent', name: 'bot', roles: ['role-ops'] });
    expect(bot).toMatchObject({ tenant_id: tenantId, kind: 'agent', roles: ['role-ops'], active: true });
    expect(await admin.getPrincipal(bot.id)).toEqual(bot);
    expect((await admin.all((cursor) => admin.listPrincipals({ cursor }))).map((p) => p.id).sort()).toEqual([adminId, bot.id].sort());

    const created = await admin.createApiKey({ principal_id: bot.id, permissions: ['read'] });
    expect(created.key).toMatch(/^ak-/);
    const listed = await admin.listApiKeys({ principal_id: bot.id });
    expect(listed.items).toEqual([expect.objectContaining({ id: created.id, status: 'active', permissions: ['read'] })]);
    expect(listed.items[0]).not.toHaveProperty('key');
    const bots = as(created.key);
    expect((await bots.listScopes()).items.map((s) => s.id)).toEqual([scopeId]);

    expect(await admin.revokeApiKey(created.id)).toMatchObject({ id: created.id, status: 'revoked' });
    expect(await failure(bots.listScopes())).toMatchObject({ name: 'RegistryError', status: 401, code: 'unauthorized' });
    expect(await admin.updatePrincipal(bot.id, { active: false })).toMatchObject({ active: false, status: 'deactivated' });
  });

  it('scopes: list, update, details and the resolved normative state', async () => {
    const child = await admin.createScope({ name: 'ops-child', selector: { region: 'eu', team: 'core' } });
    expect(await admin.updateScope(child.id, { description: 'core team' })).toMatchObject({ id: child.id, description: 'core team' });
    expect((await admin.all((cursor) => admin.listScopes({ cursor, limit: 1 }))).map((s) => s.id)).toEqual(
      expect.arrayContaining([scopeId, child.id]),
    );
    const inv = await admin.createInvariant(scopeId, { constraint: 'Customer data stays in the EU' });
    expect((await admin.getScope(scopeId)).entry_counts).toMatchObject({ invariants: 1 });
    const resolved = await admin.resolveScope(scopeId);
    expect(resolved).toMatchObject({
      scope_id: scopeId,
      selector: { region: 'eu' },
      normative_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(resolved.invariants.map((i) => i.id)).toContain(inv.id);
  });

  it('rules and versions: create, read, new version, versions, archive; paging', async () => {
    const rule = await admin.createRule(scopeId, { directive: 'Refunds above 500 need a manager', severity: 'REQUIRES_APPROVAL' });
    await admin.updateRule(scopeId, rule.id, { directive: 'Refunds above 700 need a manager', severity: 'REQUIRES_APPROVAL' });
    expect(await admin.getRule(scopeId, rule.id)).toMatchObject({ id: rule.id, version: 2, directive: 'Refunds above 700 need a manager' });
    expect((await admin.listRuleVersions(scopeId, rule.id)).items.map((v) => v.version).sort()).toEqual([1, 2]);
    const page = await admin.listRulesPage(scopeId, { limit: 1 });
    expect(page.items.map((r) => r.id)).toEqual([rule.id]);
    await admin.archiveRule(scopeId, rule.id);
    expect(await admin.listRules(scopeId)).toEqual([]);
    expect((await admin.listRules(scopeId, { status: 'archived' })).map((r) => r.id)).toEqual([rule.id]);
  });

  it('decisions, invariants, namespaces, references and links', async () => {
    await admin.createNamespace(scopeId, { path: 'payments' });
    expect((await admin.listNamespaces(scopeId)).items.map((n) => n.path)).toContain('payments');
    const decision = await admin.createDecision(scopeId, {
      decision: 'Use SEPA instant for refunds',
      namespace: 'payments',
      tags: ['refunds'],
    });
    expect(await admin.getDecision(scopeId, decision.id)).toMatchObject({ id: decision.id, decision: 'Use SEPA instant for refunds' });
    expect((await admin.listDecisions(scopeId, { tag: 'refunds' })).items.map((d) => d.id)).toEqual([decision.id]);

    const inv = await admin.createInvariant(scopeId, { constraint: 'Refunds go back to the original account' });
    expect(await admin.getInvariant(scopeId, inv.id)).toMatchObject({ id: inv.id, status: 'active' });
    const link = await admin.createLink({
      from_id: decision.id,
      from_type: 'decision',
      to_id: inv.id,
      to_type: 'invariant',
      relation: 'depends_on',
    });
    expect((await admin.listLinks({ entity_id: inv.id })).items).toEqual([
      expect.objectContaining({ id: link.id, relation: 'depends_on' }),
    ]);

    const ref = await admin.createReference(scopeId, { entry_id: inv.id, context_type: 'pr', context_ref: 'pr-42', status: 'followed' });
    expect((await admin.findReferences({ context_ref: 'pr-42' })).items.map((r) => r.id)).toEqual([ref.id]);
    expect((await admin.listScopeReferences(scopeId, { entry_id: inv.id })).items.map((r) => r.id)).toEqual([ref.id]);

    expect(await admin.revokeInvariant(scopeId, inv.id)).toMatchObject({ status: 'revoked' });
    expect((await admin.listInvariants(scopeId)).items.map((i) => i.id)).not.toContain(inv.id);
  });

  it('search, compliance check, overrides and the event feed', async () => {
    const inv = await admin.createInvariant(scopeId, { constraint: 'Never deploy on Fridays' });
    expect((await admin.search({ query: 'fridays deploy', scope_id: scopeId })).items.map((hit) => hit.entry_id)).toContain(inv.id);
    const before = await admin.checkCompliance({ scope_id: scopeId, intended_action: 'deploy the billing service on friday' });
    expect(before.conflicts.map((c) => c.entry_id)).toEqual([inv.id]);

    const override = await admin.createOverride(scopeId, { target_id: inv.id, override_type: 'permanent', justification: 'release train' });
    expect((await admin.listOverrides(scopeId)).items.map((o) => o.id)).toContain(override.id);
    const after = await admin.checkCompliance({ scope_id: scopeId, intended_action: 'deploy the billing service on friday' });
    expect(after).toMatchObject({ conflicts: [], overridden: [expect.objectContaining({ entry_id: inv.id })] });
    expect(await admin.revokeOverride(scopeId, override.id)).toMatchObject({ id: override.id, status: 'revoked' });

    const events = await admin.all((cursor) => admin.listEvents(scopeId, { cursor, limit: 5 }));
    expect(events.filter((e) => e.entity_id === override.id).map((e) => e.type)).toEqual(
      expect.arrayContaining(['override.created', 'override.revoked']),
    );
  });

  it('approvals: request and decide, and a refusal of a decider without the role as not_a_valid_decider', async () => {
    const rule = await admin.createRule(scopeId, {
      directive: 'Transfers above 10000 need finance',
      severity: 'REQUIRES_APPROVAL',
      deciders: ['role-finance'],
    });
    const financeId = (await admin.createPrincipal({ kind: 'human', name: 'fin', roles: ['role-finance'] })).id;
    const finance = as((await admin.createApiKey({ principal_id: financeId, permissions: ['read', 'approve'] })).key);
    const otherId = (await admin.createPrincipal({ kind: 'human', name: 'other' })).id;
    const other = as((await admin.createApiKey({ principal_id: otherId, permissions: ['read', 'approve'] })).key);

    const approval = await admin.requestApproval(scopeId, {
      trigger_id: rule.id,
      intended_action: 'transfer 20000 EUR',
      justification: 'supplier',
    });
    expect(approval).toMatchObject({ status: 'pending', trigger_type: 'rule' });
    const refused = await failure(other.decideApproval(scopeId, approval.id, { decision: 'approved' }));
    expect(refused).toBeInstanceOf(RegistryError);
    expect(refused).toMatchObject({ status: 403, code: 'not_a_valid_decider' });
    const decided = await finance.decideApproval(scopeId, approval.id, { decision: 'approved', comment: 'ok' });
    expect(decided).toMatchObject({ status: 'approved', decider_principal_id: financeId, override_id: expect.stringMatching(/^ovr-/) });
    expect(await admin.getApproval(scopeId, approval.id)).toEqual(decided);
    expect((await admin.listApprovals(scopeId, { status: 'approved' })).items.map((a) => a.id)).toEqual([approval.id]);
    expect(await failure(finance.decideApproval(scopeId, approval.id, { decision: 'approved' }))).toMatchObject({
      status: 409,
      code: 'conflict',
    });
  });

  it('webhooks: scope and tenant subscriptions, update, deliveries, delete; the public key set', async () => {
    const scoped = await admin.createScopeWebhook(scopeId, { url: 'http://127.0.0.1:9/hook', events: ['approval.requested'] });
    const tenantWide = await admin.createTenantWebhook({ url: 'http://127.0.0.1:9/all', events: ['*'], description: 'everything' });
    expect((await admin.listScopeWebhooks(scopeId)).items.map((s) => s.id)).toEqual([scoped.id]);
    expect((await admin.listWebhooks({ level: 'tenant' })).items.map((s) => s.id)).toEqual([tenantWide.id]);
    expect(await admin.updateWebhook(scoped.id, { description: 'chat' })).toMatchObject({ id: scoped.id, description: 'chat' });
    expect(await admin.getWebhook(scoped.id)).toMatchObject({ description: 'chat' });
    expect((await admin.listWebhookDeliveries(scoped.id)).items).toEqual(expect.any(Array));
    expect(await failure(admin.getWebhookDelivery(scoped.id, 'whd-missing'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await failure(admin.redeliverWebhook(scoped.id, 'whd-missing'))).toMatchObject({ status: 404, code: 'not_found' });
    await admin.deleteWebhook(scoped.id);
    expect(await failure(admin.getWebhook(scoped.id))).toMatchObject({ name: 'RegistryError', status: 404, code: 'not_found' });
    expect((await as('').webhookKeys()).keys.length).toBeGreaterThan(0);
  });

  it('maps refusals to RegistryError: a missing permission, a bad value, a missing field, an unknown id, a conflict', async () => {
    const forbidden = await failure(admin.createTenant({ name: 'x', slug: `x-${randomUUID().slice(0, 8)}` }));
    expect(forbidden).toBeInstanceOf(RegistryError);
    expect(forbidden).toMatchObject({
      service: 'registry',
      status: 403,
      code: 'forbidden',
      message: expect.stringContaining('platform_admin'),
    });
    expect(await failure(admin.createPrincipal({ kind: 'robot' as 'agent', name: 'r' }))).toMatchObject({
      status: 400,
      code: 'bad_request',
      message: expect.stringContaining('kind'),
    });
    expect(await failure(admin.createDecision(scopeId, {} as { decision: string }))).toMatchObject({ status: 422, code: 'unprocessable' });
    expect(await failure(admin.getPrincipal('agn-missing'))).toMatchObject({ status: 404, code: 'not_found' });
    expect(await failure(admin.getRuleShadow('rul-missing'))).toMatchObject({ status: 404, code: 'not_found' });
    await admin.createNamespace(scopeId, { path: 'twice' });
    expect(await failure(admin.createNamespace(scopeId, { path: 'twice' }))).toMatchObject({ status: 409, code: 'conflict' });
  });
});

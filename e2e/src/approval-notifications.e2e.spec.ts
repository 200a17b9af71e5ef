import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { findFreePort, startRedis, type RedisHandle } from '@arbiter/devstack';
import { eventually } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin, TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';
import { startReceiver, type Receiver } from '../../apps/registry/test/receiver';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './notifications-harness';
import { createVerdictTenant, registryApi, SCOPE_SCHEMA, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

const CONSOLE_URL = 'https://console.example.test/console';
// Retries quick enough for a test, and enough of them (50) that an SMTP server stopped for a few seconds is not given up on.
const NOTIFY_ENV = { WEBHOOK_RETRY_BASE_MS: '200', WEBHOOK_RETRY_MAX_DELAY_MS: '1000', WEBHOOK_MAX_ATTEMPTS: '50', CONSOLE_URL };
const INJECTION =
  '<script>alert(1)</script><https://evil.example|click>[click](https://evil.example) urgent: approve at https://arbiter-console.evil.example/approvals/verdict/apr-1 or www.evil.example *now* `x`';
const SECRET_PARAMETER = 'DE89-SECRET-IBAN';

type Row = {
  id: string;
  reason: string;
  channel: string;
  recipient: string;
  status: string;
  attempt_count: number;
  last_error: string | null;
};

/** Approval notifications (docs/approvals.md "Notifications") through the real stack: SMTP, Slack and Teams receivers. */
describe('approval notifications', () => {
  let smtp: SmtpSink;
  let slack: Receiver;
  let teams: Receiver;
  let stack: Stack;
  let t: VerdictTenant;
  let scope: string;
  let rule: { id: string };
  let fin: { principalId: string; key: string };
  let legal: { principalId: string; key: string };
  let boss: { principalId: string; key: string };

  const mailsTo = (address: string, approvalId: string) => smtp.mails.filter((m) => m.to.includes(address) && m.body.includes(approvalId));
  const chatOf = (r: Receiver, approvalId: string) => r.received.filter((x) => x.raw.includes(approvalId));
  const rows = async (approvalId: string): Promise<Row[]> =>
    (
      await stack
        .db('registry')
        .query(
          `SELECT id, reason, channel, recipient, status, attempt_count, last_error FROM approval_notifications WHERE approval_id = $1 ORDER BY reason, channel, recipient`,
          [approvalId],
        )
    ).rows;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    slack = await startReceiver();
    teams = await startReceiver();
    // stablePort: the registry knows the gateway (VERDICT_URL), where it reads whether an approval still waits.
    stack = await startStack({
      verdict: { stablePort: true },
      ledger: true,
      worker: true,
      registry: { env: { ...NOTIFY_ENV, SMTP_URL: smtp.url, SMTP_FROM: 'Arbiter <arbiter@example.test>' } },
    });
    stack.onStop(() => Promise.all([smtp.stop(), slack.close(), teams.close()]).then(() => undefined));
    t = await createVerdictTenant(stack, 'notify-a', {
      scope_schema: SCOPE_SCHEMA,
      approval_notifications: {
        chat_webhooks: [
          { url: slack.url, format: 'slack' },
          { url: teams.url, format: 'teams' },
        ],
      },
    });
    const reg = registryApi(stack, t.adminKey);
    scope = await reg.scope('eu', { region: 'eu' });
    rule = await reg.rule(scope, {
      directive: 'Transfers above 10,000 need finance approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      deciders: ['role-finance'],
    });
    fin = await createPrincipalWithKey(stack.registry, t.adminKey, {
      kind: 'human',
      permissions: ['approve', 'read'],
      roles: ['role-finance'],
    });
    legal = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'human', permissions: ['approve'], roles: ['role-legal'] });
    boss = await createPrincipalWithKey(stack.registry, t.adminKey, {
      kind: 'human',
      permissions: ['approve'],
      roles: ['role-cfo-office'],
    });
    await reg.patchPrincipal(fin.principalId, { email: 'fin@example.test' });
    await reg.patchPrincipal(legal.principalId, { email: 'legal@example.test' });
    await reg.patchPrincipal(boss.principalId, { email: 'boss@example.test' });
    // The human the agent acts for holds the finance role and an address: as a requester, it is never notified.
    await reg.patchPrincipal(t.humanId, { email: 'requester@example.test', roles: ['role-finance'] });
  });
  afterAll(() => stack?.stop());

  async function verdictApproval(resource = 'acct:eu/4471'): Promise<{ id: string }> {
    const agent = verdictApi(stack, t.agent.key, t.id);
    const checked = await agent
      .check({
        action: 'payments.transfer',
        resource,
        scope: { region: 'eu', env: 'prod' },
        parameters: { transfer: { amount: 20000, iban: SECRET_PARAMETER } },
        on_behalf_of: t.humanId,
      })
      .expect(200);
    expect(checked.body.verdict).toBe('approval_required');
    const created = await agent.post(`/${t.id}/v1/approvals`, { consultation_id: checked.body.consultation_id });
    expect(created.status).toBe(201);
    return created.body;
  }

  it('notifies a verdict approval’s candidate deciders by email and both chat formats, linking to the console, agent text inert', async () => {
    const approval = await verdictApproval(INJECTION);
    const link = `${CONSOLE_URL}/approvals/verdict/${approval.id}`;

    const [mail] = await eventually('the email to the finance decider', () => {
      const m = mailsTo('fin@example.test', approval.id);
      return m.length ? m : undefined;
    });
    const [slackMsg] = await eventually('the Slack message', () =>
      chatOf(slack, approval.id).length ? chatOf(slack, approval.id) : undefined,
    );
    const [teamsMsg] = await eventually('the Teams card', () =>
      chatOf(teams, approval.id).length ? chatOf(teams, approval.id) : undefined,
    );

    expect(mail.from).toBe('arbiter@example.test');
    expect(mail.body).toContain(link);
    expect(mail.body).toContain('payments.transfer');
    expect(mail.body).toContain('Transfers above 10,000 need finance approval');
    expect(mail.body).toContain(`${t.agent.id} on behalf of ${t.humanId}`);
    expect(mail.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // The HTML part is escaped (the plain text part holds the same words as text).
    const html = mail.body.slice(mail.body.indexOf('<!doctype html>'));
    expect(html).toContain('&lt;https[:]//evil[.]example|click&gt;');
    // No URL of the agent's can be clicked in any channel (defanged, and in Slack quoted as code).
    for (const text of [mail.body, slackMsg.raw, teamsMsg.raw]) expect(text).not.toMatch(/https:\/\/(arbiter-console\.)?evil|www\.evil/);
    expect(mail.body).toContain('approve at https[:]//arbiter-console[.]evil[.]example/approvals/verdict/apr-1 or www[.]evil.example');
    expect(JSON.stringify(slackMsg.body.blocks)).toContain('`&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script>|<https:\/\/evil|<a href="https:\/\/evil/);
    expect(html.match(/<a /g)).toHaveLength(1);

    expect(slackMsg.headers['content-type']).toBe('application/json');
    expect(slackMsg.body.text).toContain(`<${link}|Open in the Arbiter console>`);
    expect(slackMsg.raw).toContain('Transfers above 10,000 need finance approval');
    expect(slackMsg.raw).not.toContain('<https://evil');
    expect(slackMsg.raw).not.toContain('<script>');
    expect(slackMsg.raw).not.toMatch(/"type":"(actions|button)"/);

    expect(teamsMsg.body).toMatchObject({
      '@type': 'MessageCard',
      potentialAction: [{ '@type': 'OpenUri', targets: [{ os: 'default', uri: link }] }],
    });
    expect(teamsMsg.raw).not.toContain('](https://evil');
    expect(teamsMsg.raw).not.toContain('<script>');

    // Parameters never leave in a message; only the role's members are mailed, never the requester.
    for (const text of [mail.raw, slackMsg.raw, teamsMsg.raw]) expect(text).not.toContain(SECRET_PARAMETER);
    expect(mailsTo('legal@example.test', approval.id)).toEqual([]);
    expect(mailsTo('requester@example.test', approval.id)).toEqual([]);
    expect((await rows(approval.id)).map((r) => [r.channel, r.recipient, r.status])).toEqual([
      ['email', 'fin@example.test', 'sent'],
      ['slack', slack.url, 'sent'],
      ['teams', teams.url, 'sent'],
    ]);
  });

  it('notifies a registry approval the same way, linking to its scope’s console page', async () => {
    const requester = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['read', 'write'] });
    const approval = (
      await request(stack.registry.url)
        .post(`/api/v1/scopes/${scope}/approvals`)
        .set('Authorization', `Bearer ${requester.key}`)
        .send({ trigger_id: rule.id, intended_action: 'move the quarter-end payment', requested_by: 'the CFO, by phone' })
        .expect(201)
    ).body as { id: string };
    const link = `${CONSOLE_URL}/approvals/registry/${scope}/${approval.id}`;

    const [mail] = await eventually('the email', () =>
      mailsTo('fin@example.test', approval.id).length ? mailsTo('fin@example.test', approval.id) : undefined,
    );
    expect(mail.body).toContain(link);
    expect(mail.body).toContain('move the quarter-end payment');
    expect(mail.body).toContain('Transfers above 10,000 need finance approval');
    // Who asked is the authenticated principal; the free-text requested_by is only a label.
    expect(mail.body).toContain(`Requested by: ${requester.principalId} (label: the CFO, by phone)`);
    await eventually('both chat messages', () => chatOf(slack, approval.id).length === 1 && chatOf(teams, approval.id).length === 1);
    expect(chatOf(slack, approval.id)[0].body.text).toContain(`<${link}|`);
    // The role's members, including the human who is not the requester here.
    await eventually('the email to the other finance member', () => mailsTo('requester@example.test', approval.id).length === 1);
    expect(mailsTo('legal@example.test', approval.id)).toEqual([]);
  });

  /** The verdict's event of an approval with escalation fields, as the gateway records it through the internal API. */
  async function recordEscalating(approvalId: string): Promise<void> {
    const read = await verdictApi(stack, t.adminKey, t.id).get(`/${t.id}/v1/approvals/${approvalId}`).expect(200);
    await request(stack.registry.url)
      .post(`/internal/v1/tenants/${t.id}/events`)
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .send({
        type: 'approval.requested',
        entity_type: 'approval',
        entity_id: approvalId,
        data: { ...read.body, escalates_at: new Date(Date.now() + 3600_000).toISOString(), escalation_deciders: [boss.principalId] },
        idempotency_key: `escalation-${randomUUID()}`,
      })
      .expect(201);
    const all = await rows(approvalId);
    // The first round is not written twice; the escalation is added, due in an hour: nothing is sent before then.
    expect(all.filter((r) => r.reason === 'requested')).toHaveLength(3);
    const escalated = all.filter((r) => r.reason === 'escalated');
    expect(escalated.map((r) => [r.channel, r.recipient, r.status, r.attempt_count])).toEqual([
      ['email', 'boss@example.test', 'pending', 0],
      ['slack', slack.url, 'pending', 0],
      ['teams', teams.url, 'pending', 0],
    ]);
    // The test moves the escalation's due time into the past (escalate_after is at least 60 s).
    await stack
      .db('registry')
      .query(`UPDATE approval_notifications SET next_attempt_at = now() WHERE approval_id = $1 AND reason = 'escalated'`, [approvalId]);
    // The workers' relay polls every 50 ms in the stack and takes them from there.
  }

  it('sends the escalation to the escalation deciders while the approval is still pending', async () => {
    const approval = await verdictApproval();
    await eventually('the first round', () => mailsTo('fin@example.test', approval.id).length === 1);
    await recordEscalating(approval.id);

    const [mail] = await eventually('the escalation email', () =>
      mailsTo('boss@example.test', approval.id).length ? mailsTo('boss@example.test', approval.id) : undefined,
    );
    expect(mail.subject).toMatch(/^Approval escalated/);
    expect(mail.body).toContain(`${CONSOLE_URL}/approvals/verdict/${approval.id}`);
    await eventually(
      'the escalation in both chats',
      () => chatOf(slack, approval.id).length === 2 && chatOf(teams, approval.id).length === 2,
    );
  });

  it('does not send an escalation once the approval is decided', async () => {
    const approval = await verdictApproval();
    const decided = await verdictApi(stack, fin.key, t.id).post(`/${t.id}/v1/approvals/${approval.id}/decision`, { decision: 'reject' });
    expect(decided.status).toBe(200);
    await recordEscalating(approval.id);

    const escalated = await eventually('the escalation cancelled', async () => {
      const r = (await rows(approval.id)).filter((x) => x.reason === 'escalated');
      return r.every((x) => x.status === 'cancelled') ? r : undefined;
    });
    expect(escalated.map((x) => [x.last_error, x.attempt_count])).toEqual([
      ['approval is rejected', 0],
      ['approval is rejected', 0],
      ['approval is rejected', 0],
    ]);
    expect(mailsTo('boss@example.test', approval.id)).toEqual([]);
  });

  it('answers the status of a verdict approval on the gateway’s internal API, within its tenant only', async () => {
    const approval = await verdictApproval();
    const status = (tenant: string, id: string, token: string | null = TEST_INTERNAL_TOKEN) => {
      const r = request(stack.verdict.url).get(`/internal/v1/tenants/${tenant}/approvals/${id}/status`);
      return token ? r.set('X-Internal-Token', token) : r;
    };
    expect((await status(t.id, approval.id).expect(200)).body).toEqual({ id: approval.id, status: 'pending' });
    const other = await createTenantWithAdmin(stack.registry, 'notify-other');
    expect((await status(other.tenant.id, approval.id).expect(404)).body.code).toBe('approval_not_found');
    expect((await status(t.id, 'not-an-id').expect(400)).body.code).toBe('invalid_request');
    await status(t.id, approval.id, null).expect(401);
    // A tenant's API key is not the internal token.
    await status(t.id, approval.id, t.adminKey).expect(401);
  });

  it('never blocks a decision on a stopped SMTP server, and delivers the mail once it is back', async () => {
    await smtp.stop();
    let approval: { id: string };
    try {
      approval = await verdictApproval();
      const decided = await verdictApi(stack, fin.key, t.id).post(`/${t.id}/v1/approvals/${approval.id}/decision`, { decision: 'approve' });
      expect(decided.status).toBe(200);
      expect(decided.body.status).toBe('approved');
      // The email failed and waits for its retry; the chat messages went out on their own rows.
      await eventually('a failed email attempt', async () => {
        const mail = (await rows(approval.id)).find((r) => r.channel === 'email')!;
        return mail.status === 'pending' && mail.attempt_count >= 1 && mail.last_error !== null;
      });
      await eventually('both chat messages', () => chatOf(slack, approval.id).length === 1 && chatOf(teams, approval.id).length === 1);
    } finally {
      await smtp.start();
    }
    const mails: ReceivedMail[] = await eventually(
      'the email after the SMTP server is back',
      () => (mailsTo('fin@example.test', approval.id).length ? mailsTo('fin@example.test', approval.id) : undefined),
      { timeoutMs: 60_000 },
    );
    expect(mails).toHaveLength(1);
    // The server has the mail a moment before the registry records the answer.
    await eventually('the email row recorded as sent', async () => {
      expect((await rows(approval.id)).find((r) => r.channel === 'email')).toMatchObject({ status: 'sent', last_error: null });
      return true;
    });
  });

  it('mails nobody whose approving keys all lie in other scopes than the deciding rule’s, named by its role or not', async () => {
    const reg = registryApi(stack, t.adminKey);
    const us = await reg.scope('us', { region: 'us' });
    await reg.rule(scope, {
      directive: 'Wires need an approver of the EU scope',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.wire'] },
    });
    const approver = async (name: string, scopeIds: string[], roles: string[]) => {
      const p = await createPrincipalWithKey(stack.registry, t.adminKey, {
        kind: 'human',
        permissions: ['approve', 'read'],
        scope_ids: scopeIds,
        roles,
      });
      await reg.patchPrincipal(p.principalId, { email: `${name}@example.test` });
      return p;
    };
    await approver('eu-only', [scope], ['role-finance']);
    const usOnly = await approver('us-only', [us], ['role-finance']);
    const agent = verdictApi(stack, t.agent.key, t.id);
    const requestApproval = async (action: string, parameters: object) => {
      const checked = await agent.check({ action, resource: 'acct:eu/1', scope: { region: 'eu', env: 'prod' }, parameters }).expect(200);
      expect(checked.body.verdict).toBe('approval_required');
      return (await agent.post(`/${t.id}/v1/approvals`, { consultation_id: checked.body.consultation_id }).expect(201)).body.id as string;
    };
    // No deciders named: anyone who may approve in the EU scope; by role: the role's members who may.
    for (const id of [
      await requestApproval('payments.wire', {}),
      await requestApproval('payments.transfer', { transfer: { amount: 20000 } }),
    ]) {
      await eventually('the mail to the EU approver', () => mailsTo('eu-only@example.test', id).length === 1);
      await eventually('the chat messages', () => chatOf(slack, id).length === 1 && chatOf(teams, id).length === 1);
      expect((await rows(id)).map((r) => r.recipient)).not.toContain('us-only@example.test');
      expect(mailsTo('us-only@example.test', id)).toEqual([]);
      // Its key could not have decided it either.
      const refused = await verdictApi(stack, usOnly.key, t.id).post(`/${t.id}/v1/approvals/${id}/decision`, { decision: 'approve' });
      expect(refused.status).toBe(403);
    }
  });
});

/** README.md "Architecture": a Redis outage delays notifications and loses none (a Redis of its own, stopped and started again). */
describe('approval notifications across a Redis outage', () => {
  let dir: string;
  let port: number;
  let redis: RedisHandle;
  let smtp: SmtpSink;
  let stack: Stack;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-notify-redis-'));
    port = await findFreePort();
    redis = await startRedis({ dir, port });
    smtp = await startSmtpSink();
    stack = await startStack({ registry: { env: { ...NOTIFY_ENV, SMTP_URL: smtp.url } }, worker: true, redisUrl: redis.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await smtp?.stop();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the notifications while Redis is down and sends each once after it is back', async () => {
    const t = await createTenantWithAdmin(stack.registry, 'notify-redis');
    const auth = { Authorization: `Bearer ${t.admin.key}` };
    const scopeId = (await request(stack.registry.url).post('/api/v1/scopes').set(auth).send({ name: 'main' }).expect(201)).body.id;
    const ruleId = (
      await request(stack.registry.url)
        .post(`/api/v1/scopes/${scopeId}/rules`)
        .set(auth)
        .send({ directive: 'Releases need the release managers', severity: 'REQUIRES_APPROVAL', deciders: ['role-release'] })
        .expect(201)
    ).body.id;
    const managers: string[] = [];
    for (const name of ['rm1', 'rm2']) {
      const p = await request(stack.registry.url)
        .post('/api/v1/principals')
        .set(auth)
        .send({ kind: 'human', name, roles: ['role-release'], email: `${name}@example.test` })
        .expect(201);
      managers.push(p.body.email as string);
    }
    const requester = await createPrincipalWithKey(stack.registry, t.admin.key, { permissions: ['read', 'write'] });

    await redis.stop();
    const approvals: string[] = [];
    for (const action of ['release 1', 'release 2']) {
      const res = await request(stack.registry.url)
        .post(`/api/v1/scopes/${scopeId}/approvals`)
        .set('Authorization', `Bearer ${requester.key}`)
        .send({ trigger_id: ruleId, intended_action: action })
        .expect(201);
      approvals.push(res.body.id);
    }
    const pending = await stack
      .db('registry')
      .query(`SELECT approval_id, recipient, status, attempt_count FROM approval_notifications WHERE approval_id = ANY($1)`, [approvals]);
    expect(pending.rows).toHaveLength(4);
    expect(pending.rows.every((r) => r.status === 'pending' && r.attempt_count === 0)).toBe(true);

    redis = await startRedis({ dir, port });
    await eventually(
      'every email after the outage',
      () => approvals.every((id) => managers.every((m) => smtp.mails.some((x) => x.to.includes(m) && x.body.includes(id)))),
      { timeoutMs: 60_000 },
    );
    for (const id of approvals)
      for (const m of managers) expect(smtp.mails.filter((x) => x.to.includes(m) && x.body.includes(id))).toHaveLength(1);
  });
});

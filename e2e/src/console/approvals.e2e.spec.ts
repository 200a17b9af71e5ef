import { waitForApproval } from '@arbiter/client';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { startStack, type Stack } from '../stack';
import { backdateApproval } from '../verdict-harness';
import { createConsoleUser, expectAccessible, launchBrowser, screenshot, signedInPage } from './browser';
import { createConsoleTenant, payment, requestApproval, requestRegistryApproval, RULE_STATEMENT, type ConsoleTenant } from './tenant';

/**
 * The approver's desk in a real browser (docs/console.md "The inbox", "Deciding"): a person signed in by a one-time
 * link sees a pending approval with everything needed to decide it, approves or rejects it, and the agent waiting on
 * it through the SDK gets the answer; keyboard alone is enough; a quorum of two needs two people; every page passes
 * axe-core.
 */
describe('console: deciding approvals in the browser', () => {
  let stack: Stack;
  let browser: Browser;
  let t: ConsoleTenant;

  beforeAll(async () => {
    stack = await startStack({ verdict: { stablePort: true }, ledger: true, worker: true });
    browser = await launchBrowser();
    t = await createConsoleTenant(stack, 'console-desk');
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const as = (i: number): Promise<Page> => signedInPage(stack, browser, t.adminKey, t.finance[i].id);
  const card = (page: Page, approvalId: string) => page.getByRole('listitem').filter({ hasText: approvalId });
  const readApproval = async (id: string) =>
    (await request(stack.verdict.url).get(`/${t.id}/v1/approvals/${id}`).set('X-API-Key', t.agent.key).expect(200)).body;

  it('shows a pending approval in the inbox with its whole context', async () => {
    const id = await requestApproval(t, payment(t));
    const page = await as(0);
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    const item = card(page, id);
    await item.waitFor();
    const text = await item.innerText();
    for (const expected of [
      'payments.transfer',
      'acct:eu/4471',
      '"region": "eu"',
      '"amount": 25000',
      RULE_STATEMENT,
      t.ruleId,
      t.agent.id,
      t.humanId,
      'quarter-end supplier invoice',
      'ago',
      '0 of 1 approval',
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/Expires\s+in \d+ h/);
    expect(await page.getByText(`Finance 1`).first().isVisible()).toBe(true);
    await expectAccessible(page);
    await screenshot(page, 'inbox');
    await page.context().close();
  });

  it('approves: the agent waiting through the SDK gets the approval and its next check is allowed', async () => {
    const op = payment(t, { parameters: { transfer: { amount: 32000, currency: 'EUR' } } });
    const id = await requestApproval(t, op);
    const waiting = waitForApproval(t.agentClient, id, { pollMs: 200, timeoutMs: 120_000 });
    const page = await as(0);
    await card(page, id)
      .getByRole('link', { name: /Decide/ })
      .click();
    await page.getByRole('heading', { level: 1, name: /Approval/ }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await expectAccessible(page);
    await page.getByLabel('Notes (optional)').fill('invoice checked against the PO');
    await screenshot(page, 'approval');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved.').waitFor();
    const decided = await waiting;
    expect(decided).toMatchObject({ status: 'approved', decider: t.finance[0].id, decider_notes: 'invoice checked against the PO' });
    expect((await t.agentClient.check(op)).verdict).toBe('allowed');
    await expectAccessible(page);
    await page.context().close();
  });

  it('rejects, and the history lists the decision with its decider and notes', async () => {
    const id = await requestApproval(t, payment(t, { resource: 'acct:eu/9001' }));
    const waiting = waitForApproval(t.agentClient, id, { pollMs: 200, timeoutMs: 120_000 });
    const page = await as(1);
    await card(page, id)
      .getByRole('link', { name: /Decide/ })
      .click();
    await page.getByLabel('Notes (optional)').fill('no purchase order for this supplier');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Rejected.').waitFor();
    expect(await waiting).toMatchObject({
      status: 'rejected',
      decider: t.finance[1].id,
      decider_notes: 'no purchase order for this supplier',
    });

    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: id });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('rejected');
    expect(text).toContain(t.finance[1].id);
    expect(text).toContain('no purchase order for this supplier');
    await expectAccessible(page);
    await screenshot(page, 'history');
    await page.context().close();
  });

  it('approves with the keyboard alone (Tab and Enter)', async () => {
    const id = await requestApproval(t, payment(t, { resource: 'acct:eu/keyboard' }));
    const page = await as(1);
    await card(page, id).waitFor();
    const tabTo = async (matches: (el: { tag: string; text: string; label: string }) => boolean, what: string) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        const el = await page.evaluate(() => {
          const a = document.activeElement as HTMLElement | null;
          return {
            tag: a?.tagName ?? '',
            text: a?.textContent ?? '',
            label: a?.id ? (document.querySelector(`label[for="${a.id}"]`)?.textContent ?? '') : '',
          };
        });
        if (matches(el)) return;
      }
      throw new Error(`Tab never reached ${what}`);
    };
    await tabTo((el) => el.tag === 'A' && el.text.includes('Decide') && el.text.includes(id), 'the Decide link');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /Approval/ }).waitFor();
    await tabTo((el) => el.tag === 'TEXTAREA', 'the notes');
    await page.keyboard.type('decided without a mouse');
    await tabTo((el) => el.tag === 'BUTTON' && el.text === 'Approve', 'Approve');
    await page.keyboard.press('Enter');
    await page.getByText('Approved.').waitFor();
    expect(await readApproval(id)).toMatchObject({
      status: 'approved',
      decider: t.finance[1].id,
      decider_notes: 'decided without a mouse',
    });
    await page.context().close();
  });

  it('decides a registry approval, whose approval creates the override', async () => {
    const id = await requestRegistryApproval(stack, t, 'raise the EU transfer limit for the audit', 'auditors need the batch today');
    const page = await as(0);
    const item = card(page, id);
    await item.waitFor();
    expect(await item.innerText()).toContain(RULE_STATEMENT);
    await item.getByRole('link', { name: /Decide/ }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/^Approved\. Override ovr-/).waitFor();
    const stored = await request(stack.registry.url)
      .get(`/api/v1/scopes/${t.scopeId}/approvals/${id}`)
      .set('Authorization', `Bearer ${t.adminKey}`)
      .expect(200);
    expect(stored.body).toMatchObject({
      status: 'approved',
      decider_principal_id: t.finance[0].id,
      override_id: expect.stringMatching(/^ovr-/),
    });
    await page.context().close();
  });

  it('offers nothing to decide to a person outside the deciders, and the server refuses them anyway', async () => {
    // payments.payout: the registry approval above overrides the transfer rule in this scope.
    const id = await requestApproval(t, payment(t, { action: 'payments.payout', resource: 'acct:eu/outsider' }));
    const legal = await createConsoleUser(stack, t.adminKey, {
      name: 'Legal',
      roles: ['role-legal'],
      consolePermissions: ['read', 'approve'],
    });
    const page = await signedInPage(stack, browser, t.adminKey, legal.id);
    await page.getByText(/Nothing waits for your decision|other pending approval/).waitFor();
    expect(await card(page, id).count()).toBe(0);
    await page.goto(new URL(`/console/approvals/verdict/${id}`, page.url()).toString());
    await page.getByText('You may not decide this approval: you are not among its deciders.').waitFor();
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    const csrf = await page.evaluate(
      async () => ((await (await fetch('/console/api/session')).json()) as { csrf_token: string }).csrf_token,
    );
    const forced = await page.evaluate(
      async ([tenant, approval, token]) => {
        const res = await fetch(`/console/api/verdict/${tenant}/v1/approvals/${approval}/decision`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': token },
          body: JSON.stringify({ decision: 'approve' }),
        });
        return { status: res.status, body: await res.json() };
      },
      [t.id, id, csrf],
    );
    expect(forced).toMatchObject({ status: 403, body: { code: 'not_a_valid_decider' } });
    expect((await readApproval(id)).status).toBe('pending');
    await expectAccessible(page);
    await page.context().close();
  });

  it('a quorum of two: stays pending after one approval, and the second person approves it (docs/approvals.md "Quorum, escalation and expiry")', async () => {
    const op = payment(t, { action: 'payments.payout', resource: 'acct:eu/payroll' });
    const id = await requestApproval(t, op, 'monthly payroll');
    const waiting = waitForApproval(t.agentClient, id, { pollMs: 200, timeoutMs: 120_000 });

    const first = await signedInPage(stack, browser, t.adminKey, t.finance[0].id);
    const item = card(first, id);
    await item.waitFor();
    expect(await item.innerText()).toContain('0 of 2 approvals');
    await item.getByRole('link', { name: /Decide/ }).click();
    await first.getByLabel('Notes (optional)').fill('first pair of eyes');
    await first.getByRole('button', { name: 'Approve' }).click();
    await first.getByText('Your approval is recorded (1 of 2 approvals)').waitFor();
    expect(await readApproval(id)).toMatchObject({
      status: 'pending',
      approvals_required: 2,
      approvals: [{ decider: t.finance[0].id, notes: 'first pair of eyes' }],
    });
    await first.getByText('You may not decide this approval: you have already approved it.').waitFor();
    await first.getByRole('link', { name: 'Inbox' }).click();
    await first.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await first
      .getByRole('status')
      .filter({ hasText: /for your decision/ })
      .waitFor();
    expect(await card(first, id).count()).toBe(0);

    const second = await signedInPage(stack, browser, t.adminKey, t.finance[1].id);
    const pending = card(second, id);
    await pending.waitFor();
    expect(await pending.innerText()).toContain('1 of 2 approvals');
    await pending.getByRole('link', { name: /Decide/ }).click();
    await second.getByRole('heading', { name: 'Approvals given' }).waitFor();
    expect(await second.getByRole('region', { name: 'Approvals given' }).innerText()).toContain('first pair of eyes');
    await expectAccessible(second);
    await screenshot(second, 'quorum');
    await second.getByRole('button', { name: 'Approve' }).click();
    await second.getByText('Approved.').waitFor();

    const decided = await waiting;
    expect(decided.status).toBe('approved');
    expect((decided as unknown as { approvals: { decider: string }[] }).approvals.map((a) => a.decider)).toEqual([
      t.finance[0].id,
      t.finance[1].id,
    ]);
    expect((await t.agentClient.check(op)).verdict).toBe('allowed');
    await first.context().close();
    await second.context().close();
  });

  it('escalation: the escalation decider gets the approval in the inbox once escalates_at has passed, not before', async () => {
    const id = await requestApproval(t, payment(t, { action: 'payments.refund', resource: 'acct:eu/refund-1' }), 'customer refund');
    const page = await signedInPage(stack, browser, t.adminKey, t.director.id);
    await page
      .getByRole('status')
      .filter({ hasText: /for your decision/ })
      .waitFor();
    expect(await card(page, id).count()).toBe(0);
    await backdateApproval(stack, id, 'escalates_at');
    await page.reload();
    const item = card(page, id);
    await item.waitFor();
    await item.getByRole('link', { name: /Decide/ }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Approved.').waitFor();
    expect(await readApproval(id)).toMatchObject({ status: 'approved', decider: t.director.id });
    await page.context().close();
  });

  it('expiry: a decision on an approval that expired meanwhile is refused in the live region; it leaves the inbox for the history', async () => {
    const id = await requestApproval(t, payment(t, { action: 'payments.refund', resource: 'acct:eu/too-late' }), 'decide before it lapses');
    const page = await as(0);
    await card(page, id)
      .getByRole('link', { name: /Decide/ })
      .click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await backdateApproval(stack, id, 'expires_at');
    await page.getByRole('button', { name: 'Approve' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/The decision was refused: .*\(approval_expired, HTTP 409\)/);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('feedback');
    await expectAccessible(page);
    expect((await readApproval(id)).status).toBe('expired');

    await page.getByRole('link', { name: 'Inbox' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /for your decision/ })
      .waitFor();
    expect(await card(page, id).count()).toBe(0);
    await page.getByRole('link', { name: 'History' }).click();
    const row = page.getByRole('row').filter({ hasText: id });
    await row.waitFor();
    expect(await row.innerText()).toContain('expired');
    await page.context().close();
  });
});

import { waitForApproval } from '@arbiter/client';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { startStack, type Stack } from '../stack';
import { expectAccessible, launchBrowser, screenshot, signedInPage } from './browser';
import { createConsoleTenant, payment, requestApproval, type ConsoleTenant } from './tenant';

/**
 * A quorum of two in the browser (docs/console.md "Deciding", docs/approvals.md "Quorum, escalation and expiry"): the
 * first approval is recorded and the approval stays pending, the first approver no longer has it in the inbox, the
 * second sees "1 of 2" and completes it, and only then does the waiting agent get its answer.
 */
describe('console: a quorum of two', () => {
  let stack: Stack;
  let browser: Browser;
  let t: ConsoleTenant;

  beforeAll(async () => {
    stack = await startStack({ verdict: { stablePort: true }, ledger: true, worker: true });
    browser = await launchBrowser();
    t = await createConsoleTenant(stack, 'console-quorum');
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const card = (page: Page, approvalId: string) => page.getByRole('listitem').filter({ hasText: approvalId });
  const readApproval = async (id: string) =>
    (await request(stack.verdict.url).get(`/${t.id}/v1/approvals/${id}`).set('X-API-Key', t.agent.key).expect(200)).body;

  it('stays pending after one approval and is approved by the second person', async () => {
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
});

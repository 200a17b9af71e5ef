import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { createVerdictClient } from '@arbiter/client';
import { createVerdictTenant, registryApi, type VerdictTenant } from '../verdict-harness';
import { startStack, type Stack } from '../stack';
import { createConsoleUser, launchBrowser, signedInPage, watchForExecution } from './browser';

/** Markup that would run script if the app ever parsed it as HTML, after the name of the field it goes through (no quote or backslash, so JSON shows it unchanged). */
// No dot anywhere: a parameter member name may not hold one (docs/verdicts.md "Parameters and context"), and the
// same payload goes into every field. `self['__arbiterPwned']` is window.__arbiterPwned.
const payload = (field: string) => `${field}:<script>self['__arbiterPwned']=1</script><img src=x onerror=alert(1)>`;

/**
 * Inert rendering (docs/console.md "Security"): text from agents and users (action, resource, parameters, notes,
 * justification, rule statements, names) is shown literally, never run. The browser context bypasses the page's CSP
 * here, so the test shows that the app itself renders text nodes: it would fail if a field went through innerHTML.
 */
describe('console: text from agents and users is rendered inert', () => {
  let stack: Stack;
  let browser: Browser;
  let t: VerdictTenant;
  let scopeId: string;
  let ruleId: string;
  let decider: { id: string };
  let verdictId: string;
  let registryId: string;

  beforeAll(async () => {
    stack = await startStack({ verdict: { stablePort: true }, ledger: true, worker: true });
    browser = await launchBrowser();
    t = await createVerdictTenant(stack, 'console-inert');
    const reg = registryApi(stack, t.adminKey);
    scopeId = await reg.scope(payload('scope-name'), { region: 'eu' });
    ruleId = (
      await reg.rule(scopeId, {
        directive: payload('statement'),
        severity: 'REQUIRES_APPROVAL',
        conditions: [{ field: 'probe', op: 'eq', value: true }],
        deciders: ['role-finance'],
      })
    ).id;
    decider = await createConsoleUser(stack, t.adminKey, {
      name: payload('name'),
      roles: ['role-finance'],
      consolePermissions: ['read', 'approve'],
    });

    const agent = createVerdictClient({ baseUrl: stack.verdict.url, apiKey: t.agent.key, tenant: t.id });
    const checked = await agent.check({
      action: payload('action'),
      resource: payload('resource'),
      scope: { region: 'eu' },
      parameters: { probe: true, [payload('parameter-key')]: payload('parameter-value') },
      on_behalf_of: t.humanId,
    });
    expect(checked.verdict).toBe('approval_required');
    verdictId = (await agent.createApproval({ consultation_id: checked.consultation_id, requester_notes: payload('requester-notes') })).id;
    const asked = await request(stack.registry.url)
      .post(`/api/v1/scopes/${scopeId}/approvals`)
      .set('Authorization', `Bearer ${t.adminKey}`)
      .send({
        trigger_id: ruleId,
        intended_action: payload('intended-action'),
        justification: payload('justification'),
        requested_by: payload('requested-by'),
      })
      .expect(201);
    registryId = asked.body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** Nothing ran, no element came from the text, and each field's markup is on the page as characters. */
  async function expectInert(page: Page, watch: ReturnType<typeof watchForExecution>, fields: string[]): Promise<void> {
    const text = await page.locator('body').innerText();
    for (const field of fields) expect(text).toContain(payload(field));
    expect(await page.locator('main img, main script, header img, header script').count()).toBe(0);
    expect(await watch.executed()).toBeNull();
    expect(watch.dialogs).toEqual([]);
  }

  it('shows every field of both approvals literally in the inbox', async () => {
    const page = await signedInPage(stack, browser, t.adminKey, decider.id, { bypassCSP: true });
    const watch = watchForExecution(page);
    await page.getByRole('listitem').filter({ hasText: verdictId }).waitFor();
    await page.getByRole('listitem').filter({ hasText: registryId }).waitFor();
    await expectInert(page, watch, [
      'name',
      'action',
      'resource',
      'parameter-key',
      'parameter-value',
      'requester-notes',
      'statement',
      'intended-action',
      'justification',
      'requested-by',
      'scope-name',
    ]);
    await page.context().close();
  });

  it('shows the decider notes literally on the approval page and in the history', async () => {
    const page = await signedInPage(stack, browser, t.adminKey, decider.id, { bypassCSP: true });
    const watch = watchForExecution(page);
    for (const [id, notes] of [
      [verdictId, 'decider-notes'],
      [registryId, 'comment'],
    ]) {
      await page.getByRole('link', { name: 'Inbox' }).click();
      await page
        .getByRole('listitem')
        .filter({ hasText: id })
        .getByRole('link', { name: /Decide/ })
        .click();
      await page.getByLabel('Notes (optional)').fill(payload(notes));
      await page.getByRole('button', { name: 'Reject' }).click();
      await page.getByText('Rejected.').waitFor();
      await expectInert(page, watch, [notes, 'statement']);
    }
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('row').filter({ hasText: registryId }).waitFor();
    await expectInert(page, watch, ['decider-notes', 'comment', 'action', 'resource', 'intended-action']);
    await page.context().close();
  });
});

// The rules page in a real browser (docs/evidence.md "In the console"): a scope's rules with their versions, a shadow
// rule's disagreements, and the simulation preview of an edit listing the past consultations whose verdict would change.
import type { Browser, Page } from 'playwright-core';
import { createRegistryClient } from '@arbiter/client';
import { provisionTenant, transfer, verdictAs, type SdkTenant } from '../sdk-harness';
import { startStack, type Stack } from '../stack';
import { createConsoleUser, expectAccessible, launchBrowser, screenshot, signedInPage, watchForExecution } from './browser';

/** Text from the registry with markup in it: the page must show it as text. */
const SHADOW_DIRECTIVE = 'Transfers above 20,000 EUR are <b>blocked</b> <img src=x onerror="window.__arbiterPwned=1">';

describe('console: rules, shadow disagreements and simulation preview', () => {
  let stack: Stack;
  let browser: Browser;
  let t: SdkTenant;
  let page: Page;
  let euScope: string;
  let shadowRule: string;
  let changing: string;
  let execution: ReturnType<typeof watchForExecution>;

  beforeAll(async () => {
    // The registry asks the verdict gateway for shadow reports (VERDICT_URL): the gateway's port is reserved first.
    stack = await startStack({ verdict: { stablePort: true } });
    t = await provisionTenant(stack, 'console-rules');
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    euScope = (await reg.listScopes()).items.find((s) => s.name === 'eu')!.id;
    shadowRule = (
      await reg.createRule(euScope, {
        directive: SHADOW_DIRECTIVE,
        severity: 'MANDATORY',
        applies_to: { actions: ['payments.transfer'] },
        conditions: [{ field: 'transfer.amount', op: 'gt', value: 20000 }],
        mode: 'shadow',
      })
    ).id;
    // A rule with a window, on an action no check below touches: the page says it in words.
    await reg.createRule(euScope, {
      directive: 'At most 50 exports an hour per agent',
      severity: 'MANDATORY',
      applies_to: { actions: ['reports.export'] },
      limit: { count: true, max: 50, window: '1h', by: ['principal'] },
    });
    const agent = verdictAs(stack, t.agentKey, t.id);
    changing = (await agent.check(transfer(30000))).consultation_id; // approval_required; the shadow rule would block
    await agent.check(transfer(50)); // allowed, under every threshold
    const analyst = await createConsoleUser(stack, t.adminKey, { name: 'rules analyst', consolePermissions: ['read', 'manage_rules'] });
    browser = await launchBrowser();
    page = await signedInPage(stack, browser, t.adminKey, analyst.id);
    execution = watchForExecution(page);
    await page.getByRole('link', { name: 'Rules' }).click();
    await page.getByRole('heading', { level: 1, name: 'Rules' }).waitFor();
    await page.getByLabel('Scope').selectOption(euScope);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it("shows the scope's rules, their versions and the shadow rule's disagreements", async () => {
    await page.getByRole('heading', { name: 'Transfers above 10,000 EUR need CFO approval' }).waitFor();
    await page.getByRole('heading', { name: 'Shadow disagreements' }).waitFor();
    // The directive's markup is shown as text, and nothing in it ran.
    await page.getByRole('heading', { name: SHADOW_DIRECTIVE }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await execution.executed()).toBeNull();
    expect(execution.dialogs).toEqual([]);
    await page.getByText('1 consultations would have been decided otherwise.').waitFor();
    await page.getByText('at most 50 per 1h by principal', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Show versions of ${shadowRule}` }).click();
    await page
      .getByText(/\(current, /)
      .first()
      .waitFor();
    await expectAccessible(page);
    await screenshot(page, 'rules');
  });

  it('previews an edit: the consultations whose verdict would change, nothing saved', async () => {
    await page.getByRole('button', { name: `Preview an edit of ${t.rules.large}` }).click();
    const box = page.getByLabel('Rule content (JSON)');
    const draft = JSON.parse(await box.inputValue());
    expect(draft).toMatchObject({ directive: 'Transfers above 10,000 EUR need CFO approval', severity: 'REQUIRES_APPROVAL' });
    draft.conditions[0].value = 50000;
    await box.fill(JSON.stringify(draft, null, 2));
    await page.getByRole('button', { name: 'Run the simulation' }).click();
    await page.getByText('1 of 2 consultations would change verdict', { exact: false }).waitFor();
    await page.getByRole('link', { name: changing }).waitFor();
    await page.getByText('approval_required → allowed: 1').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'rules-simulation');
    // The preview saved nothing: the rule still has its one version.
    const versions = await createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey }).listRuleVersions(
      euScope,
      t.rules.large,
    );
    expect(versions.items).toHaveLength(1);
  });

  it('refuses an edit that is not JSON before asking the server', async () => {
    await page.getByLabel('Rule content (JSON)').fill('{ not json');
    await page.getByRole('button', { name: 'Run the simulation' }).click();
    await page.getByRole('alert').filter({ hasText: 'The rule is not JSON' }).waitFor();
  });
});

// The consultations pages in a real browser (docs/evidence.md "In the console"): filter and open a consultation, then
// verify its evidence with WebCrypto in the page: against a trust file the person loads (valid), against the published
// keys (the page says they are not pinned), and after the test altered the stored record in the verdict database
// (the page names the failing check).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '@arbiter/testing';
import { createRegistryClient } from '@arbiter/client';
import { cli } from '../cli-harness';
import { provisionTenant, transfer, verdictAs, type SdkTenant } from '../sdk-harness';
import { startStack, type Stack } from '../stack';
import { createConsoleUser, expectAccessible, launchBrowser, screenshot, signedInPage } from './browser';

/** A parameter with markup in it, which ends up in a window's key: the page must show it as text. */
const NOTE_MARKUP = '<img src=x onerror="window.__arbiterPwned=1">';

describe('console: consultations and evidence', () => {
  let stack: Stack;
  let browser: Browser;
  let t: SdkTenant;
  let page: Page;
  let dir: string;
  let trustFile: string;
  let large: string;
  let small: string;
  let budgeted: string;
  let budgetRule: string;

  const open = async (id: string) => {
    await page.goto(`${stack.registry.url}/console/consultations/${id}`);
    await page.getByRole('heading', { level: 1, name: `Consultation ${id}` }).waitFor();
  };
  const sealed = (id: string) =>
    eventually(`${id} sealed in the ledger`, async () => {
      const res = await fetch(`${stack.verdict.url}/${t.id}/v1/consultations/${id}/evidence`, { headers: { 'X-API-Key': t.agentKey } });
      return res.status === 200 || undefined;
    });
  /** The check list as the page shows it: [check, status] in order. */
  const checksShown = async () =>
    page
      .locator('ol.checks > li')
      .evaluateAll((items) => items.map((li) => [li.getAttribute('data-check'), li.getAttribute('data-status')]));

  beforeAll(async () => {
    // The console's verdict forwarder needs the registry to know the gateway (VERDICT_URL): its port is reserved first.
    stack = await startStack({ verdict: { stablePort: true }, ledger: true, worker: true });
    t = await provisionTenant(stack, 'console-ev');
    // A rule with a window (docs/verdicts.md "Budgets, rates and sequences"), made before the first check reads the
    // tenant's rules: its check's record carries `limits`.
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    const all = (await reg.listScopes()).items.find((x) => x.name === 'all')!.id;
    budgetRule = (
      await reg.createRule(all, {
        directive: 'At most 50 exports an hour per agent',
        severity: 'MANDATORY',
        applies_to: { actions: ['reports.export'] },
        limit: { count: true, max: 50, window: '1h', by: ['principal', 'parameters.note'] },
      })
    ).id;
    const agent = verdictAs(stack, t.agentKey, t.id);
    large = (await agent.check(transfer(30000))).consultation_id;
    small = (await agent.check(transfer(50))).consultation_id;
    // The key holds what the caller wrote (a parameter): the page must show it as text.
    budgeted = (
      await agent.check({ action: 'reports.export', resource: 'report:1', scope: { region: 'eu' }, parameters: { note: NOTE_MARKUP } })
    ).consultation_id;
    await Promise.all([sealed(large), sealed(small)]);
    dir = await mkdtemp(path.join(tmpdir(), 'console-evidence-'));
    trustFile = path.join(dir, 'trust.json');
    const exported = await cli({ ARBITER_VERDICT_URL: stack.verdict.url, ARBITER_LEDGER_URL: stack.ledger.url })(
      'trust',
      'export',
      '--tenant',
      t.slug,
      '--out',
      trustFile,
    );
    expect(exported.code).toBe(0);
    const auditor = await createConsoleUser(stack, t.adminKey, { name: 'auditor', consolePermissions: ['read'] });
    browser = await launchBrowser();
    page = await signedInPage(stack, browser, t.adminKey, auditor.id);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists consultations, filters them by verdict and opens one with its trace', async () => {
    await page.getByRole('link', { name: 'Consultations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Consultations' }).waitFor();
    await page.getByRole('link', { name: small }).waitFor();
    await page.getByRole('link', { name: large }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'consultations');

    await page.getByLabel('Verdict').selectOption('approval_required');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // The unfiltered list already shows `large`, and the list empties while the filtered page loads: wait for `small`
    // to go and `large` to be back, then `small` must not have come back with it.
    await page.getByRole('link', { name: small }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: large }).waitFor();
    expect(await page.getByRole('link', { name: small }).count()).toBe(0);

    await page.getByRole('link', { name: large }).click();
    await page.getByRole('heading', { level: 1, name: `Consultation ${large}` }).waitFor();
    await page.getByRole('heading', { name: 'Trace' }).waitFor();
    await page.getByRole('cell', { name: t.rules.large }).waitFor();
    await page.getByRole('button', { name: 'Show the explanation' }).click();
    await page.getByText('"role-cfo"').waitFor();
  });

  it("shows the record's limits and the trace's window state of a rule with a limit", async () => {
    await open(budgeted);
    await page.getByRole('heading', { name: 'Limits' }).waitFor();
    const limits = page.getByRole('table', { name: /windows of the rules with a limit/ });
    expect(
      await limits
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: budgetRule }) })
        .locator('td')
        .allTextContents(),
    ).toEqual([budgetRule, '1h', expect.stringContaining(JSON.stringify(NOTE_MARKUP)), '0', '1', '50']);
    await page.getByRole('cell', { name: 'condition_false (within its limit)' }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __arbiterPwned?: number }).__arbiterPwned)).toBeUndefined();
    await expectAccessible(page);
  });

  it('verifies the evidence against a trust file the person loads: every check passes', async () => {
    await open(large);
    await page.getByLabel(/Trust file/).setInputFiles(trustFile);
    await page.getByRole('button', { name: 'Verify evidence with the trust file' }).click();
    await page.getByRole('status').filter({ hasText: 'Valid: every check passed' }).waitFor();
    const shown = await checksShown();
    expect(shown.map(([check]) => check)).toEqual(
      expect.arrayContaining(['consultation.signature', 'ledger.fact_hash', 'ledger.checkpoint.signature', 'ledger.inclusion']),
    );
    expect(shown.filter(([, status]) => status === 'fail')).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'consultation-evidence-valid');
  });

  it('verifies against the published keys and says they are not pinned', async () => {
    await open(large);
    await page.getByRole('button', { name: 'Verify evidence with the published keys' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not pinned:' }).waitFor();
    expect(await page.getByText('Valid: every check passed').count()).toBe(0);
    expect((await checksShown()).find(([check]) => check === 'trust')).toEqual(['trust', 'unpinned']);
    await expectAccessible(page);
    await screenshot(page, 'consultation-evidence-unpinned');
  });

  it('names the failing check when the stored record was altered in the verdict database', async () => {
    // The verdict changed from approval_required to allowed in the stored row, its hashes and signature kept.
    const changed = await stack
      .db('verdict')
      .query(
        `UPDATE consultations SET verdict = 'allowed', record = jsonb_set(record::jsonb, '{verdict}', '"allowed"')::json WHERE id = $1 AND tenant_id = $2`,
        [large, t.id],
      );
    expect(changed.rowCount).toBe(1);
    await open(large);
    await page.getByLabel(/Trust file/).setInputFiles(trustFile);
    await page.getByRole('button', { name: 'Verify evidence with the trust file' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid: the check consultation.normative_hash failed' }).waitFor();
    const shown = await checksShown();
    expect(shown.find(([, status]) => status === 'fail')?.[0]).toBe('consultation.normative_hash');
    // The record no longer matches what the ledger sealed either.
    expect(shown).toContainEqual(['ledger.payload', 'fail']);
    await expectAccessible(page);
    await screenshot(page, 'consultation-evidence-tampered');
  });

  it('refuses a file that is not a trust file, and verifies nothing with it', async () => {
    await open(small);
    await page
      .getByLabel(/Trust file/)
      .setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"x"}') });
    await page.getByRole('alert').filter({ hasText: 'notes.json is not a trust file' }).waitFor();
    expect(await page.getByRole('button', { name: 'Verify evidence with the trust file' }).isDisabled()).toBe(true);
  });
});

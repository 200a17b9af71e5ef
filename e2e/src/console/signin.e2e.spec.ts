import type { Browser } from 'playwright-core';
import { createTenantWithAdmin, type TenantFixture } from '../../../apps/registry/test/harness';
import { startOidcProvider, type OidcHarness } from '../oidc-harness';
import { startStack, type Stack } from '../stack';
import { consoleLink, createConsoleUser, expectAccessible, launchBrowser, newContext, screenshot, signInWithLink } from './browser';

/**
 * Signing in to the console in a real browser (docs/console.md "Signing in"): a one-time link, OpenID Connect against
 * a real provider started by the test, the refusals, and signing out.
 */
describe('console: signing in', () => {
  let oidc: OidcHarness;
  let stack: Stack;
  let browser: Browser;
  let a: TenantFixture;

  beforeAll(async () => {
    oidc = await startOidcProvider();
    stack = await startStack({
      verdict: { stablePort: true },
      registry: { env: { OIDC_ISSUER: oidc.issuer, OIDC_CLIENT_ID: 'arbiter-console' } },
    });
    await oidc.addClient({ client_id: 'arbiter-console', redirect_uris: [`${stack.registry.url}/console/auth/callback`] });
    browser = await launchBrowser();
    a = await createTenantWithAdmin(stack.registry, 'console-signin');
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await oidc?.stop();
  });

  it('sends a signed-out visitor to the sign-in page, which offers single sign-on and explains links', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${stack.registry.url}/console/history`);
    await page.getByRole('heading', { level: 1, name: 'Sign in to the Arbiter console' }).waitFor();
    // The page renders before the app replaces the address (an effect after the first paint): wait for the address.
    await page.waitForURL((u) => u.pathname === '/console/signin');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/console/history');
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('arbiter console link --principal');
    await expectAccessible(page);
    await screenshot(page, 'signin');
    await page.context().close();
  });

  it('signs in with a one-time link, refuses it the second time, and signs out', async () => {
    const person = await createConsoleUser(stack, a.admin.key, { name: 'Ada Approver', consolePermissions: ['read', 'approve'] });
    const url = await consoleLink(stack, a.admin.key, person.id);
    const page = await signInWithLink(await newContext(browser), url);
    expect(await page.locator('header').innerText()).toContain('Ada Approver');
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await expectAccessible(page);

    const again = await (await newContext(browser)).newPage();
    const reopened = await again.goto(url);
    expect(reopened?.status()).toBeGreaterThanOrEqual(400);
    expect(await again.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    await again.context().close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to the Arbiter console' }).waitFor();
    const session = await page.evaluate(async () => (await fetch('/console/api/session')).status);
    expect(session).toBe(401);
    await page.context().close();
  });

  it('signs in through OpenID Connect as the principal bound to the subject, back to the page asked for', async () => {
    const person = await createConsoleUser(stack, stack.registry.adminKey, {
      name: 'Grace Hopper',
      consolePermissions: ['read', 'approve'],
      oidc: { issuer: oidc.issuer, subject: 'grace', tenantId: a.tenant.id },
    });
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${stack.registry.url}/console/history`);
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await page.getByLabel('Subject').fill('grace');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
    expect(await page.locator('header').innerText()).toContain('Grace Hopper');
    expect(await page.locator('header').innerText()).toContain(person.id);
    await page.context().close();
  });

  it('refuses a subject bound to no principal, without signing anyone in', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${stack.registry.url}/console/signin`);
    await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await page.getByLabel('Subject').fill('mallory');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('No Arbiter account').first().waitFor();
    expect(await page.evaluate(async () => (await fetch('/console/api/session')).status)).toBe(401);
    await page.getByRole('link', { name: 'Back to sign-in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to the Arbiter console' }).waitFor();
    await page.context().close();
  });
});

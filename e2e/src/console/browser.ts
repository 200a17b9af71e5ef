// The browser harness of the console's tests (docs/console.md "Browser tests"): Debian's Chromium driven by
// playwright-core (which downloads no browser), a page signed in through a one-time console link, an accessibility
// check with axe-core, and screenshots for docs/console.md. A missing Chromium fails the test, it never skips it.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import request from 'supertest';
import type { Stack } from '../stack';

jest.setTimeout(180_000);

/** Debian's package (`.ci/run` installs it); ARBITER_CHROMIUM points elsewhere. */
export const CHROMIUM = process.env.ARBITER_CHROMIUM ?? '/usr/bin/chromium';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCREENSHOTS = path.join(ROOT, 'docs', 'console');

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium (or set ARBITER_CHROMIUM)`,
    );
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
}

/**
 * A fresh browser context (its own cookies). `bypassCSP` only for the inert-rendering test, which must show that the
 * app itself never turns text into markup, whatever the Content-Security-Policy would have stopped.
 */
export async function newContext(browser: Browser, opts: { bypassCSP?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({
    bypassCSP: opts.bypassCSP ?? false,
    viewport: { width: 1200, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
}

/**
 * A human principal who can sign in to the console, made through the public API by a tenant admin, or with `oidc` by
 * a platform admin naming the tenant (only a platform admin binds an OpenID Connect identity).
 */
export async function createConsoleUser(
  stack: Stack,
  adminKey: string,
  opts: { name: string; roles?: string[]; consolePermissions: string[]; oidc?: { issuer: string; subject: string; tenantId: string } },
): Promise<{ id: string }> {
  const answer = await request(stack.registry.url)
    .post('/api/v1/principals')
    .set('Authorization', `Bearer ${adminKey}`)
    .send({
      kind: 'human',
      name: opts.name,
      roles: opts.roles,
      console_permissions: opts.consolePermissions,
      ...(opts.oidc ? { oidc_issuer: opts.oidc.issuer, oidc_subject: opts.oidc.subject, tenant_id: opts.oidc.tenantId } : {}),
    });
  if (answer.status !== 201) throw new Error(`creating console user ${opts.name}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { id: answer.body.id };
}

/** A one-time sign-in link for the principal (`POST /api/v1/principals/<id>/console-links`, admin). */
export async function consoleLink(stack: Stack, adminKey: string, principalId: string): Promise<string> {
  const answer = await request(stack.registry.url)
    .post(`/api/v1/principals/${principalId}/console-links`)
    .set('Authorization', `Bearer ${adminKey}`)
    .send({});
  if (answer.status !== 201) throw new Error(`console link for ${principalId}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.url as string;
}

/**
 * Opens a console link in `context` and confirms it (the link's page has a "Sign in" button, so that a link
 * prefetcher cannot use it up), then waits for the signed-in shell. Returns the page, on the inbox.
 */
export async function signInWithLink(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Sign in' }).click();
  try {
    await page.getByText('Signed in as').waitFor({ timeout: 20_000 });
  } catch (err) {
    const body = await page
      .locator('body')
      .innerText()
      .catch(() => '');
    throw new Error(
      `signing in by link did not reach the console: at ${page.url()}: ${body.slice(0, 500)} (${(err as Error).message.split('\n')[0]})`,
    );
  }
  return page;
}

/** Makes a console user's link and signs them in, in a context of their own. */
export async function signedInPage(
  stack: Stack,
  browser: Browser,
  adminKey: string,
  principalId: string,
  opts: { bypassCSP?: boolean } = {},
): Promise<Page> {
  const context = await newContext(browser, opts);
  return signInWithLink(context, await consoleLink(stack, adminKey, principalId));
}

/** Follows an in-app link (a click, as a person would) and waits for the page's heading. */
export async function openInApp(page: Page, linkName: string | RegExp, heading: string | RegExp): Promise<void> {
  await page.getByRole('link', { name: linkName }).first().click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page and returns its serious and critical findings (the assertion is that there are none).
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern, so the check runs
 * under the real policy.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return (results.violations as { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => JSON.stringify(n.target)) }));
}

/** Asserts axe-core finds nothing serious or critical on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await axeFindings(page)).toEqual([]);
}

/**
 * Saves a PNG of the page as docs/console/<name>.png, only when ARBITER_WRITE_SCREENSHOTS=1 (so a CI run leaves the
 * tree clean); the committed pictures in docs/console.md are taken this way.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.ARBITER_WRITE_SCREENSHOTS !== '1') return;
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`screenshot name ${name}: lowercase letters, digits and dashes only`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Records what would show script execution in the page: dialogs (alert, confirm, prompt) and the global a payload
 * sets. The dialog is dismissed so the page goes on.
 */
export function watchForExecution(page: Page): { dialogs: string[]; executed: () => Promise<unknown> } {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { dialogs, executed: () => page.evaluate(() => (window as unknown as { __arbiterPwned?: unknown }).__arbiterPwned ?? null) };
}

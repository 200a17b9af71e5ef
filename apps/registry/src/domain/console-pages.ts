/**
 * The few server-rendered pages of the console's sign-in (docs/identity.md "Console sign-in"): plain HTML, no
 * script and no style (the console's Content-Security-Policy allows neither inline), every value escaped.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, head = ''): string {
  return (
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Arbiter</title>${head}` +
    `</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>\n`
  );
}

/**
 * A one-time link's page: opening it consumes nothing (link prefetchers), its button signs in. Its referrer policy is
 * `same-origin`: under the console's `Referrer-Policy: no-referrer` a browser's form post says `Origin: null`, which the
 * same-origin check refuses, so this page lets its own post name its origin (and sends no referrer elsewhere).
 */
export function linkPage(a: { principalName: string; tenantName: string; action: string; formToken: string }): string {
  return page(
    'Sign in to the Arbiter console',
    `<p>Sign in as <strong>${escapeHtml(a.principalName)}</strong> (tenant ${escapeHtml(a.tenantName)}).</p>` +
      `<form method="post" action="${escapeHtml(a.action)}"><input type="hidden" name="form_token" value="${escapeHtml(a.formToken)}">` +
      `<button type="submit">Sign in</button></form>`,
    '<meta name="referrer" content="same-origin">',
  );
}

/** A refusal: what went wrong, and the way back to the sign-in page. */
export function refusalPage(title: string, message: string): string {
  return page(title, `<p>${escapeHtml(message)}</p><p><a href="/console/signin">Back to sign-in</a></p>`);
}

/**
 * After an OpenID Connect callback: a same-origin step into the console, so the browser sends the new SameSite=Strict
 * cookie (a redirect would still belong to the identity provider's cross-site navigation).
 */
export function continuePage(target: string): string {
  const t = escapeHtml(target);
  return page('Signed in', `<p><a href="${t}">Continue to the console</a></p>`, `<meta http-equiv="refresh" content="0;url=${t}">`);
}

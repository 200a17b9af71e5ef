import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * A real OpenID provider for the console's sign-in tests (docs/identity.md "Console sign-in"): oidc-provider on
 * 127.0.0.1 in a child process (e2e/src/oidc-provider.mjs), PKCE required of every client. Its login page has a
 * "Subject" field and a "Sign in" button: the `sub` typed there is the account the ID token names, so a test chooses
 * who signs in (a browser fills the form; `loginAt` below posts it over HTTP).
 */
export interface OidcHarness {
  /** The issuer identifier (`iss`), `http://127.0.0.1:<port>`: give it to the registry as OIDC_ISSUER. */
  readonly issuer: string;
  /** Registers a client; without a secret it is a public client (PKCE alone). */
  addClient(client: { client_id: string; client_secret?: string; redirect_uris: string[] }): Promise<void>;
  stop(): Promise<void>;
}

const SCRIPT = path.join(__dirname, 'oidc-provider.mjs');

export async function startOidcProvider(): Promise<OidcHarness> {
  const child: ChildProcess = spawn(process.execPath, [SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  const issuer = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve((JSON.parse(line) as { issuer: string }).issuer));
    child.once('exit', (code) => reject(new Error(`the test OpenID provider exited (${code}) before listening`)));
  });
  return {
    issuer,
    async addClient(client) {
      const res = await fetch(`${issuer}/test/clients`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(client),
      });
      if (res.status !== 204) throw new Error(`the test OpenID provider refused the client: ${res.status} ${await res.text()}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A cookie jar for HTTP tests that follow a sign-in by hand: one per origin (host and port), names and values only.
 * `fetch` never follows redirects here, so a test sees each hop.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const origin = new URL(url).origin;
    const headers = new Headers(init.headers);
    const jar = this.cookies.get(origin);
    if (jar?.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.store(origin, line);
    return res;
  }

  /** The value of a cookie the origin set, if any. */
  get(origin: string, name: string): string | undefined {
    return this.cookies.get(new URL(origin).origin)?.get(name);
  }

  private store(origin: string, line: string): void {
    const [pair, ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const jar = this.cookies.get(origin) ?? new Map<string, string>();
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
    if (expired) jar.delete(name);
    else jar.set(name, value);
    this.cookies.set(origin, jar);
  }
}

/**
 * Signs in at the provider as `sub`: from the authorization URL (the provider's `/auth?...`) through its login page
 * to the redirect back to the client. Answers that redirect's URL (`<redirect_uri>?code=...&state=...`), unopened.
 */
export async function loginAt(jar: CookieJar, authorizationUrl: string, sub: string): Promise<string> {
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    const res = await jar.fetch(url, init);
    init = {};
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url).toString();
      if (new URL(next).origin !== new URL(authorizationUrl).origin) return next;
      url = next;
      continue;
    }
    const page = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page);
    if (res.status !== 200 || !action) throw new Error(`unexpected answer from the test OpenID provider at ${url}: ${res.status} ${page}`);
    url = new URL(action[1], url).toString();
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sub }).toString(),
    };
  }
  throw new Error('too many redirects at the test OpenID provider');
}

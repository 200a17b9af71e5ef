#!/usr/bin/env node
// A real OpenID provider (oidc-provider) on 127.0.0.1 for the console's sign-in tests, started and driven by
// e2e/src/oidc-harness.ts. PKCE is required of every client; the login page asks for the subject (`sub`) to sign
// in as, so each test chooses its account. It prints one JSON line, {"issuer": ...}, once it listens.
//
// POST /test/clients {client_id, client_secret?, redirect_uris}: registers a client. oidc-provider fixes its
// clients when built, so each registration builds the provider again with the same signing key and cookie keys
// (the registry's callback URL is known only once it listens, after the issuer's URL had to be given to it).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

// RS256: the algorithm every relying party must support (OpenID Connect Core 1.0, section 15.1).
const jwk = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig' };
const cookieKeys = [randomBytes(32).toString('hex')];
const clients = [];
let provider;

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function build(issuer) {
  const p = new Provider(issuer, {
    clients,
    jwks: { keys: [jwk] },
    cookies: { keys: cookieKeys },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    // A first-party client: no consent screen, the grant is given at login.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid');
      await grant.save();
      return grant;
    },
  });
  return p;
}

const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://127.0.0.1');
    const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (req.method === 'POST' && url.pathname === '/test/clients') {
      const c = JSON.parse(await readBody(req));
      clients.push({
        client_id: c.client_id,
        ...(c.client_secret ? { client_secret: c.client_secret } : { token_endpoint_auth_method: 'none' }),
        redirect_uris: c.redirect_uris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      });
      provider = build(provider.issuer);
      res.writeHead(204).end();
    } else if (interaction && req.method === 'GET' && !interaction[2]) {
      const details = await provider.interactionDetails(req, res);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body><main><h1>Test identity provider</h1>` +
          `<form method="post" action="/interaction/${escape(details.uid)}/login"><label for="sub">Subject</label>` +
          `<input id="sub" name="sub" required><button type="submit">Sign in</button></form></main></body></html>`,
      );
    } else if (interaction && req.method === 'POST' && interaction[2]) {
      const sub = new URLSearchParams(await readBody(req)).get('sub');
      if (!sub) {
        res.writeHead(400).end('sub is required');
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
    } else {
      provider.callback()(req, res);
    }
  } catch (err) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(err?.message ?? err));
  }
});

server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = build(issuer);
  process.stdout.write(`${JSON.stringify({ issuer })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

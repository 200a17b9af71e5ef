import { generateKeyPairSync, sign } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Io } from './io';
import { runCli } from './program';

/** An Io over in-memory files; fetch answers from `urls` or fails. */
function memoryIo(files: Record<string, string> = {}, urls: Record<string, unknown> = {}, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env,
    fetch: (async (url: string) => {
      if (!(url in urls)) throw new Error(`connect ECONNREFUSED ${url}`);
      return new Response(JSON.stringify(urls[url]), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch,
    readFile: async (p) => {
      if (!(p in files)) throw new Error(`ENOENT: no such file, open '${p}'`);
      return files[p];
    },
    writeFile: async (p, d) => void (files[p] = d),
    readStdin: async () => files['<stdin>'] ?? '',
    now: () => new Date('2026-03-01T12:00:00.000Z'),
  };
  const run = async (...argv: string[]) => {
    out.length = 0;
    err.length = 0;
    const code = await runCli(argv, io);
    return { code, stdout: out.join(''), stderr: err.join('') };
  };
  return { run, files };
}

// A verdict and its key made here with node:crypto, as the gateway makes them.
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const jwk = {
  ...publicKey.export({ format: 'jwk' }),
  kid: 'tnt-1:2026',
  alg: 'ES256',
  use: 'sig',
  not_before: '2026-01-01T00:00:00.000Z',
  not_after: null,
};
const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
const iat = Date.parse('2026-03-01T11:59:00.000Z') / 1000;
const claims = {
  iss: 'arbiter-verdict',
  sub: 'agn-1',
  iat,
  exp: iat + 300,
  jti: 'cns-1',
  tenant_id: 'tnt-1',
  verdict: 'allowed',
  action: 'a',
  resource: 'r',
  scope: {},
  parameters: {},
  on_behalf_of: null,
  context_hash: 'sha256:x',
  normative_hash: 'sha256:y',
  dominating_rule_id: null,
  cited_rule_version_ids: [],
};
const input = `${b64({ alg: 'ES256', kid: 'tnt-1:2026' })}.${b64(claims)}`;
const jws = `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;

describe(runCli.name, () => {
  it('prints help and exits 0', async () => {
    const { run } = memoryIo();
    const r = await run('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: arbiter');
  });

  it('exits 2 on an unknown command or a missing option', async () => {
    const { run } = memoryIo();
    expect((await run('sign', 'x')).code).toBe(2);
    const r = await run('verify', 'verdict', jws);
    expect(r).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("give the tenant's keys you hold: --trust <file> (arbiter trust export) or --jwks <file|url>"),
    });
  });

  it('verifies a verdict from a key set file, human and JSON', async () => {
    const { run } = memoryIo({ 'jwks.json': JSON.stringify({ keys: [jwk] }) });
    const human = await run('verify', 'verdict', jws, '--jwks', 'jwks.json');
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toBe('signed verdict: VALID');
    const json = await run('--json', 'verify', 'verdict', jws, '--jwks', 'jwks.json');
    expect(JSON.parse(json.stdout)).toMatchObject({ subject: 'signed verdict', valid: true, claims: { jti: 'cns-1' } });
  });

  it('refuses a JSON input it cannot read exactly (docs/development.md "Storable JSON"), exit 2', async () => {
    const { run } = memoryIo({
      'jwks.json': `{"keys":[${JSON.stringify(jwk)}],"serial":9007199254740993}`,
      'nul.json': JSON.stringify({ keys: [{ ...jwk, kid: 'tnt-1:2026\u0000' }] }),
    });
    const big = await run('verify', 'verdict', jws, '--jwks', 'jwks.json');
    expect(big).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('the key set jwks.json cannot be read exactly: /serial holds a number which'),
    });
    const nul = await run('verify', 'verdict', jws, '--jwks', 'nul.json');
    expect(nul).toMatchObject({ code: 2, stderr: expect.stringContaining('/keys/0/kid contains U+0000 (NUL)') });
  });

  it('refuses a JSON input that names a member twice in one object (readers disagree on which counts), exit 2', async () => {
    const key = JSON.stringify(jwk);
    const { run } = memoryIo({
      'twice.json': `{"keys":[${key.slice(0, -1)},"kid":"tnt-1:1999"}]}`,
      'escaped.json': `{"keys":[${key}],"\u006beys":[]}`,
      'apart.json': `{"keys":[${key}],"other":{"keys":[]}}`,
    });
    expect(await run('verify', 'verdict', jws, '--jwks', 'twice.json')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('the key set twice.json cannot be read exactly: /keys/0/kid names a member its object already has'),
    });
    expect(await run('verify', 'verdict', jws, '--jwks', 'escaped.json')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('/keys names a member its object already has'),
    });
    // One name in two objects is no repetition.
    expect((await run('verify', 'verdict', jws, '--jwks', 'apart.json')).code).toBe(0);
  });

  it('reads the key set from a URL and the verdict from stdin', async () => {
    const { run, files } = memoryIo({}, { 'https://verdict.example/v1/tenants/t/jwks': { keys: [jwk] } });
    files['<stdin>'] = `${jws}\n`;
    expect((await run('verify', 'verdict', '-', '--jwks', 'https://verdict.example/v1/tenants/t/jwks')).code).toBe(0);
  });

  it('exits 1 with the reason when a check fails, and 2 when an input cannot be read', async () => {
    const { run } = memoryIo({ 'jwks.json': JSON.stringify({ keys: [{ ...jwk, kid: 'tnt-1:2025' }] }) });
    const bad = await run('verify', 'verdict', jws, '--jwks', 'jwks.json');
    expect(bad).toMatchObject({ code: 1, stdout: expect.stringContaining('[FAIL] unknown_kid') });
    const missing = await run('verify', 'verdict', jws, '--jwks', 'nope.json');
    expect(missing).toMatchObject({
      code: 2,
      stderr: "arbiter: cannot read the key set nope.json: ENOENT: no such file, open 'nope.json'\n",
    });
  });

  it('says which API key variables it reads when none is given', async () => {
    const { run } = memoryIo();
    const r = await run('keys', 'rotate', 'ledger', '--mode', 'emergency');
    expect(r).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('pass --api-key or set ARBITER_LEDGER_API_KEY or ARBITER_API_KEY'),
    });
    expect((await run('keys', 'rotate', 'registry', '--tenant', 't', '--api-key', 'ak-x')).stderr).toContain(
      '--tenant applies to the verdict service only',
    );
  });

  it('reports a service that cannot be reached with exit 2, as JSON too', async () => {
    const { run } = memoryIo({}, {}, { ARBITER_API_KEY: 'ak-x', ARBITER_LEDGER_URL: 'http://127.0.0.1:9' });
    const r = await run('--json', 'keys', 'rotate', 'ledger');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ error: expect.stringContaining('cannot reach the ledger service'), exit_code: 2 });
  });

  it('refuses a webhook key that is neither PEM nor the key document', async () => {
    const { run } = memoryIo({ body: '{}', key: 'hello' });
    const r = await run('verify', 'webhook', '--body', 'body', '--timestamp', '1', '--signature', 'ab', '--key', 'key');
    expect(r).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('neither a PEM public key nor the JSON of GET /.well-known/webhook-key'),
    });
  });

  describe('verify standard-webhook', () => {
    // Signed by the standardwebhooks reference library, at the memory Io's clock.
    const secret = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
    const other = `whsec_${Buffer.alloc(32, 6).toString('base64')}`;
    const body = '{"id":"evt-000000000000002a","type":"approval.requested"}';
    const id = 'dlv-0123456789abcdef01234567';
    const at = new Date('2026-03-01T11:59:30.000Z');
    const ts = String(at.getTime() / 1000);
    const signature = `${new Webhook(other).sign(id, at, body)} ${new Webhook(secret).sign(id, at, body)}`;
    const args = (...more: string[]) => [
      'verify',
      'standard-webhook',
      '--body',
      'body.json',
      '--id',
      id,
      '--timestamp',
      ts,
      '--signature',
      signature,
      ...more,
    ];

    it('verifies with a secret inline, from a file, or from ARBITER_WEBHOOK_SECRET, and checks the age', async () => {
      const { run } = memoryIo({ 'body.json': body, 'secret.txt': `${secret}\n` });
      expect(await run(...args('--secret', secret, '--max-age', '300'))).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('HMAC-SHA256 signature valid'),
      });
      expect((await run(...args('--secret', 'secret.txt'))).code).toBe(0);
      expect((await memoryIo({ 'body.json': body }, {}, { ARBITER_WEBHOOK_SECRET: secret }).run(...args())).code).toBe(0);
      expect((await run(...args('--secret', secret, '--max-age', '10'))).code).toBe(1);
    });

    it('exits 1 on a changed body or another secret, 2 without a secret', async () => {
      const { run } = memoryIo({ 'body.json': body.replace('2a', '2b') });
      expect((await run(...args('--secret', secret))).code).toBe(1);
      const fine = memoryIo({ 'body.json': body });
      expect((await fine.run(...args('--secret', `whsec_${Buffer.alloc(32, 7).toString('base64')}`))).code).toBe(1);
      expect(await fine.run(...args())).toMatchObject({ code: 2, stderr: expect.stringContaining('ARBITER_WEBHOOK_SECRET') });
    });

    it('with --tenant and --subscription, exits 1 on a delivery made for another subscription', async () => {
      const bound = '{"id":"evt-000000000000002a","tenant_id":"tnt-a","subscription_id":"whk-a"}';
      const signed = new Webhook(secret).sign(id, at, bound);
      const { run } = memoryIo({ 'body.json': bound });
      const bind = (sub: string) => [
        'verify',
        'standard-webhook',
        '--body',
        'body.json',
        '--id',
        id,
        '--timestamp',
        ts,
        '--signature',
        signed,
        '--secret',
        secret,
        '--tenant',
        'tnt-a',
        '--subscription',
        sub,
      ];
      expect(await run(...bind('whk-a'))).toMatchObject({ code: 0, stdout: expect.stringContaining('subscription_id is whk-a') });
      expect(await run(...bind('whk-b'))).toMatchObject({ code: 1, stdout: expect.stringContaining('made for another subscription') });
    });
  });
});

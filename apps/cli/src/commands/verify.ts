// `arbiter verify …`: offline checks of what the services produced. Each prints a report (or JSON
// with --json) and exits 0 when every check passed, 1 when one failed, 3 when the keys were not the
// verifier's own (docs/cli.md). Keys come from the caller: --trust (a trust file), --jwks or --keys;
// keys a command fetches from the very service it checks leave the report unpinned.
import { parseIsoInstant } from '@arbiter/input';
import {
  decodeVerdictUnverified,
  extendTrust,
  factsFromDocuments,
  ReportBuilder,
  verifyConsultation,
  verifyEvidencePack,
  verifyLedgerBundle,
  VerdictVerificationError,
  verifyVerdict,
  verifyStandardWebhook,
  verifyWebhookSignature,
  type KeySet,
  type LedgerKeySet,
  type VerificationReport,
} from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError } from '../io';
import { loadTrust } from './trust';

const JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A key set given as a file or a URL (fetched once, as the tool runs once). */
async function loadKeySet(ctx: CommandContext, source: string): Promise<KeySet> {
  const doc = (await ctx.readJson(source, 'key set')) as KeySet;
  if (!doc || !Array.isArray(doc.keys))
    throw new CliError(`the key set ${source} has no keys array (expected GET /v1/tenants/<slug>/jwks)`);
  return doc;
}

/** The tenant's verdict keys the caller gives: --trust (a trust file: also the tenant the verdict must be of) or --jwks. */
async function callerKeySet(
  ctx: CommandContext,
  opts: { jwks?: string; trust?: string },
): Promise<{ keySet: KeySet; tenant?: string } | undefined> {
  if (opts.trust && opts.jwks) throw new CliError('give either --trust or --jwks, not both');
  if (opts.trust) {
    const trust = await loadTrust(ctx, opts.trust);
    return { keySet: trust.jwks, tenant: trust.tenant_id };
  }
  return opts.jwks ? { keySet: await loadKeySet(ctx, opts.jwks) } : undefined;
}

export interface VerifyVerdictFlags {
  jwks?: string;
  trust?: string;
  at?: string;
  allowExpired?: boolean;
  tenant?: string;
}

export async function verifyVerdictCommand(ctx: CommandContext, input: string, opts: VerifyVerdictFlags): Promise<number> {
  if (!opts.trust && !opts.jwks)
    throw new CliError("give the tenant's keys you hold: --trust <file> (arbiter trust export) or --jwks <file|url>");
  const jws = JWS.test(input.trim()) ? input.trim() : (await ctx.readText(input, 'verdict')).trim();
  const at = opts.at === undefined ? ctx.io.now().getTime() : parseIsoInstant(opts.at);
  if (at === null) throw new CliError(`--at ${opts.at} is not an ISO 8601 time with Z or an offset`);
  const held = (await callerKeySet(ctx, opts))!;
  if (held.tenant && opts.tenant && held.tenant !== opts.tenant)
    throw new CliError(`--tenant ${opts.tenant} is not the tenant of the trust file (${held.tenant})`);
  const report = new ReportBuilder('signed verdict');
  let claims: Record<string, unknown> | undefined;
  try {
    const v = await verifyVerdict(jws, {
      jwks: held.keySet,
      now: at,
      allowExpired: opts.allowExpired,
      tenantId: opts.tenant ?? held.tenant,
    });
    claims = v.claims;
    report.pass(
      'signature',
      `ES256 signature valid with key ${v.kid} (window ${v.key.not_before} to ${v.key.not_after ?? 'open'}; issued ${v.issuedAt.toISOString()})`,
    );
    report.info('verdict', `${v.claims.verdict} for ${v.claims.action} on ${v.claims.resource}, consultation ${v.claims.jti}`);
    report.info(
      'expiry',
      v.expired ? `expired at ${v.expiresAt.toISOString()} (accepted with --allow-expired)` : `valid until ${v.expiresAt.toISOString()}`,
    );
  } catch (err) {
    if (!(err instanceof VerdictVerificationError)) throw err;
    claims = err.claims ?? decodeVerdictUnverified(jws)?.claims;
    report.fail(err.code, err.message);
  }
  return ctx.report(report.build(), { claims });
}

export async function verifyConsultationCommand(
  ctx: CommandContext,
  input: string,
  opts: ServiceFlags & { jwks?: string; trust?: string },
): Promise<number> {
  let record: unknown;
  const held = await callerKeySet(ctx, opts);
  let jwksUrl: string | undefined;
  if (/^cns-[A-Za-z0-9_-]+$/.test(input)) {
    const client = ctx.verdict(opts, true, 'agent');
    ctx.progress(`reading consultation ${input} from ${client.baseUrl}`);
    record = await client.getConsultation(input);
    if (!held) jwksUrl = await client.jwksUrl();
  } else {
    record = await ctx.readJson(input, 'consultation record');
    if (!held)
      throw new CliError(
        "give --trust <file> (arbiter trust export) or --jwks <file|url> (the tenant's key set, GET /v1/tenants/<slug>/jwks) to check the signature of a saved record",
      );
  }
  const checked = await verifyConsultation(record, { jwks: held?.keySet, jwksUrl, fetch: ctx.io.fetch, now: ctx.io.now() });
  const report = new ReportBuilder(checked.subject);
  report.checks.push(...checked.checks);
  const tenant = (record as { tenant_id?: unknown } | null)?.tenant_id;
  if (held?.tenant && tenant !== held.tenant)
    report.fail('trust', `the record is of tenant ${String(tenant)}, your trust file of ${held.tenant}`);
  // Keys read from the service whose record is checked vouch for nothing the service could not forge.
  if (jwksUrl)
    report.unpinned(
      'trust',
      `the key set came from the verdict service that served the record (${jwksUrl}): give --trust <file> or --jwks`,
    );
  return ctx.report(report.build());
}

export interface VerifyBundleFlags extends ServiceFlags {
  facts?: string[];
  keys?: string;
  trust?: string;
}

export async function verifyBundleCommand(ctx: CommandContext, input: string, opts: VerifyBundleFlags): Promise<number> {
  let bundle: unknown;
  let facts: unknown[];
  // --keys is the caller's key set (trusted as given), unless --trust names the keys held: then it is
  // history, whose transitions extend them. Keys fetched from the ledger being checked are only history.
  let published: unknown = opts.keys ? await ctx.readJson(opts.keys, 'ledger key set') : undefined;
  const trust = opts.trust ? await loadTrust(ctx, opts.trust) : undefined;
  if (/^bnd-[0-9a-f]+$/.test(input)) {
    // Fetched from the ledger: the bundle, then the stream's facts up to the bundle's size.
    const client = ctx.ledger(opts, true, 'agent');
    ctx.progress(`reading bundle ${input} from ${client.baseUrl}`);
    const b = await client.getBundle(input);
    bundle = b;
    facts = opts.facts?.length
      ? await readFacts(ctx, opts.facts)
      : await client.listAllFacts(b.stream_id, {
          upTo: b.facts_manifest.length,
          onProgress: (n, total) => ctx.progress(`facts: ${n}/${total}`),
        });
    published ??= await client.keys();
  } else {
    if (!opts.facts?.length || (!opts.keys && !opts.trust))
      throw new CliError(
        'give --facts <file> (one or more GET /streams/{id}/facts pages) and --trust <file> or --keys <file|url> (GET /.well-known/ledger-keys)',
      );
    bundle = await ctx.readJson(input, 'bundle');
    facts = await readFacts(ctx, opts.facts);
  }
  const pin = new ReportBuilder('trust');
  let keys: unknown = published;
  if (trust) {
    pin.pass('trust', `ledger keys pinned by your trust file (${trust.ledger_keys.keys.length} keys)`);
    const { trusted, report: extension } = extendTrust(trust, {
      ledger_transitions: (published as LedgerKeySet | undefined)?.transitions ?? [],
    });
    pin.include('trust', extension);
    keys = trusted.ledger_keys;
  } else if (!opts.keys) {
    pin.unpinned('trust', 'the ledger keys came from the ledger that served the bundle: give --trust <file> or --keys');
  }
  const checked = verifyLedgerBundle({
    bundle,
    keys,
    facts,
    tenantId: trust?.tenant_id,
    onProgress: (n, total) => ctx.progress(`chain: ${n}/${total} facts`),
  });
  const report = new ReportBuilder(checked.subject);
  report.checks.push(...pin.checks, ...checked.checks);
  return ctx.report(report.build(), { facts_verified: checked.facts_verified, facts_in_manifest: checked.facts_in_manifest });
}

async function readFacts(ctx: CommandContext, files: string[]): Promise<unknown[]> {
  const docs: unknown[] = [];
  for (const f of files) docs.push(await ctx.readJson(f, 'facts file'));
  return factsFromDocuments(docs);
}

export interface VerifyWebhookFlags {
  body: string;
  timestamp: string;
  signature: string;
  key: string;
  keyId?: string;
  maxAge?: string;
  /** The receiving subscription's tenant and id: a delivery whose body names others fails. */
  tenant?: string;
  subscription?: string;
}

export async function verifyWebhookCommand(ctx: CommandContext, opts: VerifyWebhookFlags): Promise<number> {
  // Webhook bodies are JSON, so UTF-8 text: its bytes are the raw body the signature covers.
  const body = await ctx.readText(opts.body, 'body');
  const keyText = (opts.key.trim().startsWith('-----BEGIN') ? opts.key : await ctx.readText(opts.key, 'key')).trim();
  let key: Parameters<typeof verifyWebhookSignature>[0]['key'];
  if (keyText.startsWith('-----BEGIN')) key = keyText;
  else {
    try {
      key = JSON.parse(keyText);
    } catch {
      throw new CliError(`the key ${opts.key} is neither a PEM public key nor the JSON of GET /.well-known/webhook-key`);
    }
  }
  const report: VerificationReport = verifyWebhookSignature({
    body,
    timestamp: opts.timestamp,
    signature: opts.signature,
    key,
    keyId: opts.keyId,
    maxAgeSeconds: maxAgeOf(opts),
    now: ctx.io.now(),
    tenantId: opts.tenant,
    subscriptionId: opts.subscription,
  });
  return ctx.report(report);
}

function maxAgeOf(opts: { maxAge?: string }): number | undefined {
  const maxAge = opts.maxAge === undefined ? undefined : Number(opts.maxAge);
  if (maxAge !== undefined && !(maxAge >= 0)) throw new CliError(`--max-age ${opts.maxAge} is not a number of seconds`);
  return maxAge;
}

export interface VerifyStandardWebhookFlags {
  body: string;
  id: string;
  timestamp: string;
  signature: string;
  secret?: string[];
  maxAge?: string;
  tenant?: string;
  subscription?: string;
}

/** `verify standard-webhook`: the webhook-* headers of a delivery against the subscription's secret(s). */
export async function verifyStandardWebhookCommand(ctx: CommandContext, opts: VerifyStandardWebhookFlags): Promise<number> {
  const body = await ctx.readText(opts.body, 'body');
  const sources = opts.secret?.length ? opts.secret : ctx.io.env.ARBITER_WEBHOOK_SECRET ? [ctx.io.env.ARBITER_WEBHOOK_SECRET] : [];
  if (!sources.length)
    throw new CliError("give the subscription's secret: --secret whsec_… (or a file holding it), or ARBITER_WEBHOOK_SECRET");
  const secret: string[] = [];
  for (const s of sources) secret.push(s.startsWith('whsec_') ? s : (await ctx.readText(s, 'secret file')).trim());
  const report = verifyStandardWebhook({
    body,
    id: opts.id,
    timestamp: opts.timestamp,
    signature: opts.signature,
    secret,
    maxAgeSeconds: maxAgeOf(opts),
    now: ctx.io.now(),
    tenantId: opts.tenant,
    subscriptionId: opts.subscription,
  });
  return ctx.report(report);
}

export async function verifyEvidenceCommand(ctx: CommandContext, input: string, opts: { trust?: string } = {}): Promise<number> {
  const pack = await ctx.readJson(input, 'evidence pack');
  const trust = opts.trust ? await loadTrust(ctx, opts.trust) : undefined;
  return ctx.report(await verifyEvidencePack(pack, { now: ctx.io.now(), trust }));
}

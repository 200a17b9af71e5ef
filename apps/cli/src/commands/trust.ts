// `arbiter trust export | extend`: the keys an auditor holds (docs/evidence.md "Trusted keys"). export
// writes the tenant's verdict key set and the ledger's keys into a trust file, once, from a channel the
// auditor trusts; extend adds the keys made since, through history the held keys vouch for. Every
// verification takes the file with --trust.
import {
  extendTrust,
  fetchKeyHistory,
  InputError,
  jwkThumbprint,
  parseTrustFile,
  TRUST_FILE_FORMAT,
  type TrustFile,
} from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';
import { renderReport } from '../render';

/** A trust file given with --trust, checked; a file that is not one is a usage error. */
export async function loadTrust(ctx: CommandContext, source: string): Promise<TrustFile> {
  const doc = await ctx.readJson(source, 'trust file');
  try {
    return parseTrustFile(doc, `the trust file ${source}`);
  } catch (err) {
    if (err instanceof InputError) throw new CliError(err.message);
    throw err;
  }
}

/** One line per key: kid, window and RFC 7638 thumbprint (what an auditor compares over a second channel). */
function fingerprints(trust: TrustFile): string[] {
  const line = (
    what: string,
    k: { kid: string; kty: string; crv: string; x: string; y?: string; not_before: string; not_after: string | null },
  ) => `  ${what}  ${k.kid}  ${jwkThumbprint(k)}  [${k.not_before}, ${k.not_after ?? '∞'})`;
  return [...trust.jwks.keys.map((k) => line('verdict', k)), ...trust.ledger_keys.keys.map((k) => line('ledger ', k))];
}

async function writeTrust(ctx: CommandContext, out: string, trust: TrustFile): Promise<void> {
  try {
    await ctx.io.writeFile(out, `${JSON.stringify(trust, null, 2)}\n`);
  } catch (err) {
    throw new CliError(`cannot write ${out}: ${(err as Error).message}`);
  }
}

export interface ExportTrustFlags extends ServiceFlags {
  out: string;
  ledgerUrl?: string;
}

/** `trust export --tenant <id|slug> --out trust.json`: public keys only, so no API key is needed with --tenant. */
export async function exportTrust(ctx: CommandContext, opts: ExportTrustFlags): Promise<number> {
  const verdict = ctx.verdict(opts, !(opts.tenant ?? ctx.io.env.ARBITER_TENANT), 'agent');
  const ledger = ctx.ledger(ctx.otherService('ledger', opts.ledgerUrl, undefined, undefined), false);
  const tenant = opts.tenant ?? ctx.io.env.ARBITER_TENANT ?? (await verdict.whoami()).tenant_id;
  ctx.progress(`key set of ${tenant} from ${verdict.baseUrl}`);
  const { keySet } = await verdict.jwks(tenant);
  const tenantIds = [...new Set(keySet.keys.map((k) => k.kid.split(':')[0]))];
  if (tenantIds.length !== 1)
    throw new CliError(
      `the key set of ${tenant} names ${tenantIds.length ? `the tenants ${tenantIds.join(', ')}` : 'no key'}: expected the keys of one tenant`,
      EXIT.failed,
    );
  ctx.progress(`ledger keys from ${ledger.baseUrl}`);
  const { keys } = await ledger.keys();
  const trust: TrustFile = {
    format: TRUST_FILE_FORMAT,
    version: 1,
    tenant_id: tenantIds[0],
    exported_at: ctx.io.now().toISOString(),
    source: { verdict_url: verdict.baseUrl, ledger_url: ledger.baseUrl },
    jwks: { keys: keySet.keys },
    ledger_keys: { keys },
  };
  parseTrustFile(trust);
  await writeTrust(ctx, opts.out, trust);
  ctx.print(
    {
      out: opts.out,
      tenant_id: trust.tenant_id,
      verdict_keys: keySet.keys.map((k) => ({ kid: k.kid, thumbprint: jwkThumbprint(k) })),
      ledger_keys: keys.map((k) => ({ kid: k.kid, thumbprint: jwkThumbprint(k) })),
    },
    [
      `wrote ${opts.out}: the keys of ${trust.tenant_id} and of the ledger; compare these thumbprints (RFC 7638) with the ones your operator publishes:`,
      ...fingerprints(trust),
    ].join('\n'),
  );
  return EXIT.ok;
}

export interface ExtendTrustFlags extends ServiceFlags {
  out?: string;
}

/**
 * `trust extend trust.json [--out new.json]` (a ledger key with `read` of the tenant): the ledger's transitions
 * and the tenant's keys stream, checked against the file's keys; the keys they vouch for are added and the
 * retirements applied. A history that does not verify writes nothing and exits 1.
 */
export async function extendTrustCommand(ctx: CommandContext, file: string, opts: ExtendTrustFlags): Promise<number> {
  const trust = await loadTrust(ctx, file);
  const ledger = ctx.ledger(opts, true, 'agent');
  // Another tenant's stream reads as absent (404): a key of another tenant would find no history at all.
  const { tenant_id } = await ledger.whoami();
  if (tenant_id !== trust.tenant_id)
    throw new CliError(
      `the ledger key is of tenant ${tenant_id}, the trust file of ${trust.tenant_id}: give a key with read of ${trust.tenant_id}`,
    );
  ctx.progress(`key history of ${trust.tenant_id} from ${ledger.baseUrl}`);
  const { trusted, report } = extendTrust(trust, await fetchKeyHistory(ledger, trust.tenant_id));
  if (report.status === 'invalid') {
    ctx.print({ ...report, written: null }, `${renderReport(report)}\nnothing written: the history does not verify against ${file}`);
    return EXIT.failed;
  }
  const out = opts.out ?? file;
  const next: TrustFile = {
    ...trust,
    jwks: trusted.jwks,
    ledger_keys: { keys: trusted.ledger_keys.keys },
    extended_at: ctx.io.now().toISOString(),
  };
  await writeTrust(ctx, out, next);
  const added = trusted.added.length ? `added ${trusted.added.join(', ')}` : 'no new key';
  ctx.print(
    { ...report, written: out, added: trusted.added },
    `${renderReport(report)}\nwrote ${out}: ${added}\n${fingerprints(next).join('\n')}`,
  );
  return EXIT.ok;
}

// `arbiter evidence export <consultation_id> --out pack.json`: one self-contained file an auditor
// checks with `arbiter verify evidence --trust trust.json` on a machine that cannot reach Arbiter.
// Version 3 (default) adds the consultation's ledger fact, inclusion proof, checkpoint, the ledger's
// keys and the tenant's key history.
import { ArbiterError, buildEvidencePack, verifyEvidencePack } from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';
import { loadTrust } from './trust';

export interface ExportEvidenceFlags extends ServiceFlags {
  out: string;
  ledgerUrl?: string;
  ledgerApiKey?: string;
  /** Write a version 1 pack (no ledger evidence, no ledger access). */
  v1?: boolean;
  /** An unsealed consultation gives a version 1 pack and a warning instead of an error. */
  fallbackV1?: boolean;
  /** The self-check against the keys the exporter holds (else: against the pack's own keys, unpinned). */
  trust?: string;
}

export async function exportEvidence(ctx: CommandContext, consultationId: string, opts: ExportEvidenceFlags): Promise<number> {
  if (!/^cns-[A-Za-z0-9_-]+$/.test(consultationId)) throw new CliError(`${consultationId} is not a consultation id (cns-…)`);
  if (opts.v1 && (opts.fallbackV1 || opts.ledgerUrl || opts.ledgerApiKey))
    throw new CliError('--v1 reads no ledger: it takes neither --fallback-v1, --ledger-url nor --ledger-api-key');
  const trust = opts.trust ? await loadTrust(ctx, opts.trust) : undefined;
  const client = ctx.verdict(opts, true, 'agent');
  const ledger = opts.v1
    ? undefined
    : ctx.ledger(ctx.otherService('ledger', opts.ledgerUrl, opts.ledgerApiKey, opts.apiKey), true, 'agent');
  let pack;
  try {
    pack = await buildEvidencePack(client, consultationId, {
      ledger,
      fallbackToV1: opts.fallbackV1,
      onWarning: (m) => ctx.io.stderr(`arbiter: warning: ${m}\n`),
      onProgress: (m) => ctx.progress(m),
      now: () => ctx.io.now(),
    });
  } catch (err) {
    if (err instanceof ArbiterError && err.service === 'verdict' && err.code === 'evidence_pending') {
      throw new CliError(
        `consultation ${consultationId} is not sealed in the ledger yet (sealing is asynchronous): try again shortly, or pass --fallback-v1 to write a version 1 pack without ledger evidence`,
        EXIT.failed,
      );
    }
    throw err;
  }
  // Checked before it is handed over: a pack that does not verify here would not verify anywhere.
  const report = await verifyEvidencePack(pack, { now: ctx.io.now(), trust });
  const failed = report.status === 'invalid';
  try {
    await ctx.io.writeFile(opts.out, `${JSON.stringify(pack, null, 2)}\n`);
  } catch (err) {
    throw new CliError(`cannot write ${opts.out}: ${(err as Error).message}`);
  }
  const ledgerPart =
    pack.version !== 1 ? `, ledger fact ${pack.ledger.fact.fact_id} (leaf ${pack.ledger.leaf_index} of ${pack.ledger.tree_size})` : '';
  const summary =
    `wrote ${opts.out}: consultation ${consultationId} (${pack.consultation.verdict}), ${pack.jwks.keys.length} keys, ` +
    `${pack.rule_versions.length} rule versions, ${pack.approvals_available ? `${pack.approvals.length} approvals` : 'approvals not available on this service'}${ledgerPart}; ` +
    `pack version ${pack.version}; self-check ${failed ? 'FAILED' : report.valid ? 'passed against your trust file' : "passed against the pack's own keys (unpinned: give --trust to check it against keys you hold)"}`;
  ctx.print(
    {
      out: opts.out,
      version: pack.version,
      consultation_id: consultationId,
      valid: report.valid,
      status: report.status,
      rule_versions: pack.rule_versions.length,
      approvals: pack.approvals.length,
      approvals_available: pack.approvals_available,
      ...(pack.version !== 1
        ? { fact_id: pack.ledger.fact.fact_id, leaf_index: pack.ledger.leaf_index, tree_size: pack.ledger.tree_size }
        : {}),
    },
    summary,
  );
  if (failed)
    ctx.io.stderr(
      `${report.checks
        .filter((c) => c.status === 'fail')
        .map((c) => `arbiter: self-check failed: ${c.check}: ${c.message}`)
        .join('\n')}\n`,
    );
  return failed ? EXIT.failed : EXIT.ok;
}

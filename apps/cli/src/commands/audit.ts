// `arbiter audit consultations --since … --until …`: the completeness audit (docs/evidence.md
// "Completeness audit"). Exit 0 when clean, 1 on any finding, 2 on usage or connection errors, 3 when
// clean but the checkpoints were checked with the ledger's own keys (no --trust).
import { parseIsoDateOrTime } from '@arbiter/input';
import { auditConsultations, type ConsultationAuditReport } from '@arbiter/client';
import type { CommandContext } from '../context';
import { CliError, EXIT } from '../io';
import { renderReport } from '../render';
import { loadTrust } from './trust';

export interface AuditConsultationsFlags {
  since: string;
  until: string;
  checkpoint?: string;
  saveCheckpoint?: string;
  trust?: string;
  grace: string;
  tenant?: string;
  apiKey?: string;
  verdictUrl?: string;
  verdictApiKey?: string;
  ledgerUrl?: string;
  ledgerApiKey?: string;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `90`, `90s`, `500ms`, `5m`, `1h` → milliseconds (a bare number is seconds). */
export function parseDuration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new CliError(`--grace ${text} is not a duration (e.g. 60s, 5m, 1h, 500ms)`);
  return Math.round(Number(m[1]) * UNIT_MS[(m[2] ?? 's') as keyof typeof UNIT_MS]);
}

function isoBound(text: string, name: string): string {
  if (parseIsoDateOrTime(text) === null) throw new CliError(`--${name} ${text} is not an ISO 8601 date or timestamp`);
  return text;
}

/**
 * The checkpoint kept from the last audit. A missing file stays an error (exit 2), never an audit without the
 * consistency check: a deleted file must not silently skip it. The message names the first audit's command.
 */
async function readKept(ctx: CommandContext, file: string): Promise<unknown> {
  try {
    return await ctx.readJson(file, 'kept checkpoint');
  } catch (err) {
    if (err instanceof CliError && /ENOENT/.test(err.message)) {
      throw new CliError(
        `${err.message}; a first audit has no kept checkpoint: run it without --checkpoint, and with --save-checkpoint ${file} to keep one for the next audit`,
      );
    }
    throw err;
  }
}

export async function auditConsultationsCommand(ctx: CommandContext, opts: AuditConsultationsFlags): Promise<number> {
  const since = isoBound(opts.since, 'since');
  const until = isoBound(opts.until, 'until');
  const graceMs = parseDuration(opts.grace);
  const kept = opts.checkpoint ? await readKept(ctx, opts.checkpoint) : undefined;
  const trust = opts.trust ? await loadTrust(ctx, opts.trust) : undefined;
  // Flags first (a service's own key, then the shared --api-key), then each service's variables.
  const verdict = ctx.verdict({ url: opts.verdictUrl, apiKey: opts.verdictApiKey ?? opts.apiKey, tenant: opts.tenant }, true, 'agent');
  const ledger = ctx.ledger({ url: opts.ledgerUrl, apiKey: opts.ledgerApiKey ?? opts.apiKey }, true, 'agent');
  const report = await auditConsultations({
    verdict,
    ledger,
    tenant: opts.tenant,
    since,
    until,
    checkpoint: kept,
    trust,
    graceMs,
    now: () => ctx.io.now(),
    onProgress: (m) => ctx.progress(m),
  });
  let saved: string | null = null;
  if (opts.saveCheckpoint) {
    if (report.next_checkpoint) {
      try {
        await ctx.io.writeFile(opts.saveCheckpoint, `${JSON.stringify(report.next_checkpoint, null, 2)}\n`);
      } catch (err) {
        throw new CliError(`cannot write ${opts.saveCheckpoint}: ${(err as Error).message}`);
      }
      saved = opts.saveCheckpoint;
    } else {
      ctx.io.stderr(
        `arbiter: ${opts.saveCheckpoint} not written: the current checkpoint did not verify, or is not consistent with the kept one\n`,
      );
    }
  }
  ctx.print({ ...report, saved_checkpoint: saved }, renderAudit(report, saved));
  return report.findings > 0 ? EXIT.failed : report.checkpoint.status === 'unpinned' ? EXIT.unpinned : EXIT.ok;
}

const show = (v: unknown) => JSON.stringify(v) ?? 'absent';

/** One line per finding, then the checkpoint checks. */
export function renderAudit(r: ConsultationAuditReport, saved: string | null): string {
  const lines = [
    `consultations of ${r.tenant_id} from ${r.since} to ${r.until}: ${r.findings === 0 ? 'CLEAN' : `${r.findings} finding${r.findings === 1 ? '' : 's'}`}`,
    `  ${r.records} records in the verdict service; ${r.facts_read} facts read from ${r.stream_id}, ${r.facts_in_period} decided in the period` +
      (r.pending.length ? `; ${r.pending.length} younger than ${r.grace_ms / 1000}s not sealed yet (not findings)` : ''),
  ];
  for (const f of r.missing_in_verdict) {
    lines.push(
      `  [MISSING IN VERDICT] ${f.consultation_id}: sealed as ${f.fact_ids.join(', ')} (decided_at ${String(f.decided_at)}), but the verdict service has no such consultation: its record was deleted`,
    );
  }
  for (const f of r.unsealed) lines.push(`  [UNSEALED]   ${f.consultation_id}: requested at ${f.requested_at}, no fact in the ledger`);
  for (const f of r.duplicated) lines.push(`  [DUPLICATED] ${f.consultation_id}: ${f.fact_ids.length} facts (${f.fact_ids.join(', ')})`);
  for (const f of r.mismatched) {
    const fields = f.fields.map((d) =>
      d.field === 'record_content'
        ? `record_content: the record hashes to ${String(d.record)}, not to the sealed normative_hash ${String(d.ledger)} (the record was changed)`
        : `${d.field}: record ${show(d.record)}, ledger ${show(d.ledger)}`,
    );
    lines.push(`  [MISMATCHED] ${f.consultation_id} (fact ${f.fact_id}): ${fields.join('; ')}`);
  }
  for (const f of r.malformed) lines.push(`  [MALFORMED]  fact ${f.fact_id}: ${f.problem}`);
  lines.push(renderReport(r.checkpoint));
  if (r.next_checkpoint)
    lines.push(
      `next checkpoint to keep: size ${r.next_checkpoint.tree_size}, root ${r.next_checkpoint.root_hash}${saved ? `, saved to ${saved}` : ''}`,
    );
  return lines.join('\n');
}

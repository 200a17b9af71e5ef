// `arbiter archive verify --tenant … --since … --until …` (docs/cli.md "Archive verification"): exit 0 when every
// consultation the ledger sealed in the period is in the database or in exactly one intact sealed segment, 1 on any
// problem, 2 on usage or connection errors.
import { openArchiveStore, type ArchiveStore } from '@arbiter/archive';
import { ArbiterError, periodBound, type LedgerFactListEntry } from '@arbiter/client';
import { auditStreamId } from '@arbiter/audit-streams';
import type { CommandContext } from '../context';
import { CliError, EXIT } from '../io';
import { renderArchiveVerify, verifyArchive } from '../archive-verify';

export interface ArchiveVerifyFlags {
  tenant: string;
  since: string;
  until: string;
  /** file://<dir> or s3://<bucket>/<prefix>; else ARCHIVE_URL. */
  archive?: string;
  apiKey?: string;
  verdictUrl?: string;
  verdictApiKey?: string;
  ledgerUrl?: string;
  ledgerApiKey?: string;
}

const isNotFound = (err: unknown) => err instanceof ArbiterError && err.status === 404;

/** The archive the flag or ARCHIVE_URL names (S3 settings and credentials from the environment, as the services read them). */
function archiveOf(ctx: CommandContext, flag: string | undefined): ArchiveStore {
  const env = ctx.io.env;
  const url = flag ?? env.ARCHIVE_URL;
  if (!url) throw new CliError('no archive: pass --archive file://<dir> or s3://<bucket>/<prefix>, or set ARCHIVE_URL');
  try {
    return openArchiveStore({ ...env, ARCHIVE_URL: url })!;
  } catch (err) {
    throw new CliError(`--archive ${url}: ${(err as Error).message}`);
  }
}

export async function archiveVerifyCommand(ctx: CommandContext, opts: ArchiveVerifyFlags): Promise<number> {
  if (!/^tnt-[0-9a-z_.-]{1,100}$/.test(opts.tenant)) throw new CliError(`--tenant ${opts.tenant} is not a tenant id (tnt-…)`);
  let sinceMs: number;
  let untilMs: number;
  try {
    sinceMs = periodBound(opts.since, false, '--since');
    untilMs = periodBound(opts.until, true, '--until');
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (sinceMs > untilMs) throw new CliError(`--since ${opts.since} is after --until ${opts.until}`);
  const store = archiveOf(ctx, opts.archive);
  const verdict = ctx.verdict({ url: opts.verdictUrl, apiKey: opts.verdictApiKey ?? opts.apiKey, tenant: opts.tenant }, true, 'agent');
  const ledger = ctx.ledger({ url: opts.ledgerUrl, apiKey: opts.ledgerApiKey ?? opts.apiKey }, true, 'agent');
  async function* facts(kind: 'consultations' | 'archives'): AsyncGenerator<LedgerFactListEntry> {
    try {
      for await (const page of ledger.factPages(auditStreamId(opts.tenant, kind))) yield* page.facts;
    } catch (err) {
      if (!isNotFound(err)) throw err; // no stream yet: nothing sealed there
    }
  }
  const report = await verifyArchive({
    tenant: opts.tenant,
    sinceMs,
    untilMs,
    store,
    consultationFacts: () => facts('consultations'),
    archiveFacts: () => facts('archives'),
    async *databaseRecords() {
      const since = new Date(sinceMs).toISOString();
      const until = new Date(untilMs).toISOString();
      for await (const page of verdict.consultationPages({ since, until, limit: 1000 }, { tenant: opts.tenant })) yield* page.items;
    },
    async getRecord(id) {
      try {
        return await verdict.getConsultation(id, { tenant: opts.tenant });
      } catch (err) {
        if (isNotFound(err)) return null;
        // Left the database, and its segment does not read: not in the database, which is what this asks.
        if (err instanceof ArbiterError && err.code === 'archive_unavailable') return { archived: true } as never;
        throw err;
      }
    },
    onProgress: (m) => ctx.progress(m),
  });
  ctx.print(report, renderArchiveVerify(report));
  return report.valid ? EXIT.ok : EXIT.failed;
}

// `arbiter evidence export <consultation_id> --out pack.json`: one self-contained file an auditor
// checks with `arbiter verify evidence` on a machine that cannot reach Arbiter.
import { buildEvidencePack, verifyEvidencePack } from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';

export async function exportEvidence(ctx: CommandContext, consultationId: string, opts: ServiceFlags & { out: string }): Promise<number> {
  if (!/^cns-[A-Za-z0-9_-]+$/.test(consultationId)) throw new CliError(`${consultationId} is not a consultation id (cns-…)`);
  const client = ctx.verdict(opts);
  const pack = await buildEvidencePack(client, consultationId, { onProgress: (m) => ctx.progress(m), now: () => ctx.io.now() });
  // Checked before it is handed over: a pack that does not verify here would not verify anywhere.
  const report = await verifyEvidencePack(pack, { now: ctx.io.now() });
  try {
    await ctx.io.writeFile(opts.out, `${JSON.stringify(pack, null, 2)}\n`);
  } catch (err) {
    throw new CliError(`cannot write ${opts.out}: ${(err as Error).message}`);
  }
  const summary =
    `wrote ${opts.out}: consultation ${consultationId} (${pack.consultation.verdict}), ${pack.jwks.keys.length} keys, ` +
    `${pack.rule_versions.length} rule versions, ${pack.approvals_available ? `${pack.approvals.length} approvals` : 'approvals not available on this service'}; ` +
    `self-check ${report.valid ? 'passed' : 'FAILED'}`;
  ctx.print({ out: opts.out, consultation_id: consultationId, valid: report.valid, rule_versions: pack.rule_versions.length, approvals: pack.approvals.length, approvals_available: pack.approvals_available }, summary);
  return report.valid ? EXIT.ok : EXIT.failed;
}

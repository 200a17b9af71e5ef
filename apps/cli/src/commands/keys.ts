// `arbiter keys rotate <service>`: each service's rotation endpoint (docs/verdicts.md "Signing keys"). The old key
// stays published with not_after set, so everything it signed still verifies.
import { ArbiterError, type RotationMode } from '@arbiter/client';
import type { CommandContext, ServiceFlags } from '../context';
import { CliError, EXIT } from '../io';

export const ROTATABLE = ['verdict', 'ledger', 'registry'] as const;
export type RotatableService = (typeof ROTATABLE)[number];

export interface RotateOptions extends ServiceFlags {
  mode: string;
}

/**
 * A scheduled rotation when this year's key exists (verdict 409, ledger and registry 400): always so on a fresh
 * install, since each service makes this year's key at its first start (docs/cli.md "Rotating keys").
 */
export async function rotateKeys(ctx: CommandContext, service: string, opts: RotateOptions): Promise<number> {
  try {
    return await rotate(ctx, service, opts);
  } catch (err) {
    if (opts.mode === 'scheduled' && err instanceof ArbiterError && (err.status === 409 || err.status === 400)) {
      const failure = ctx.failure(err)!;
      throw new CliError(
        `${failure.message}; this year's key exists (as on every fresh install): a scheduled rotation is due from 1 January (UTC) of next year${service === 'verdict' ? ', and the gateway makes it by itself at its first signature then' : ''}; --mode emergency rotates now`,
        failure.exitCode,
      );
    }
    throw err;
  }
}

async function rotate(ctx: CommandContext, service: string, opts: RotateOptions): Promise<number> {
  if (!ROTATABLE.includes(service as RotatableService)) throw new CliError(`unknown service ${service}: choose ${ROTATABLE.join(', ')}`);
  if (opts.mode !== 'scheduled' && opts.mode !== 'emergency') throw new CliError(`--mode must be scheduled or emergency, not ${opts.mode}`);
  const mode = opts.mode as RotationMode;
  if (service === 'verdict') {
    const client = ctx.verdict(opts);
    const tenant = await client.tenant();
    ctx.progress(`rotating the verdict signing key of ${tenant} (${mode})`);
    const r = await client.rotateSigningKey(mode, { tenant });
    ctx.print(
      { service, tenant, ...r },
      `verdict signing key of ${tenant} rotated (${mode}): new kid ${r.kid}, valid from ${r.not_before}; retired: ${r.retired.join(', ') || 'none'}`,
    );
    return EXIT.ok;
  }
  if (opts.tenant) throw new CliError(`--tenant applies to the verdict service only: the ${service} key is service-wide`);
  if (service === 'ledger') {
    ctx.progress(`rotating the ledger bundle signing key (${mode})`);
    const r = await ctx.ledger(opts).rotateSigningKey(mode);
    ctx.print(
      { service, ...r },
      `ledger bundle signing key rotated (${mode}): new kid ${r.key_id}; retired: ${r.retired.join(', ') || 'none'}`,
    );
    return EXIT.ok;
  }
  ctx.progress(`rotating the registry webhook signing key (${mode})`);
  const r = await ctx.registry(opts).rotateWebhookKey(mode);
  ctx.print(
    { service, ...r },
    `registry webhook signing key rotated (${mode}): new kid ${r.kid}; retired: ${r.retired.join(', ') || 'none'}`,
  );
  return EXIT.ok;
}

// An express middleware for enforcement points: the operation runs only with a signed verdict that
// verifies (verifyVerdict), has not expired, says `allowed`, is bound to exactly this operation (and,
// when the executor knows it, this context), and (with a replay guard) was not used before.
// Bindings are compared as RFC 8785 canonical JSON, so member order and number spelling do not matter
// and nothing else does either (docs/verdicts.md "Verifying a verdict offline", step 5).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { canonicalJson, sha256Digest } from '@arbiter/canonical';
import { VerdictVerificationError } from './errors';
import type { JwksSource } from './jwks';
import type { ReplayGuard } from './replay-guard';
import type { KeySet } from './types';
import { verifyVerdict, type VerifiedVerdict } from './verify-verdict';

/** What the request is about to do; compared with the verdict's claims. */
export interface VerdictBinding {
  action: string;
  resource: string;
  scope: Record<string, unknown>;
  /** Default {} (a check without parameters signs {}). */
  parameters?: Record<string, unknown>;
  /**
   * The context Facts the check was asked with, when the executor knows them (as sent: `{field: {value,
   * source, ...}}`): the verdict's `context_hash` must then be theirs too, so a verdict obtained with other
   * Facts (another amount given as a Fact, another ledger citation) does not pass. Absent: not compared.
   */
  context?: Record<string, unknown>;
}

export type RefusalCode =
  | 'verdict_missing'
  | 'verdict_invalid'
  | 'verdict_expired'
  | 'verdict_not_allowed'
  | 'verdict_binding_mismatch'
  | 'verdict_key_retired'
  | 'verdict_replayed'
  | 'verdict_unverifiable';

export interface RequireVerdictOptions {
  jwks?: KeySet | JwksSource;
  jwksUrl?: string;
  fetch?: typeof fetch;
  /** The operation of this request (may be async, e.g. after loading the resource). */
  binding: (req: Request) => VerdictBinding | Promise<VerdictBinding>;
  /** Request header carrying the compact JWS. Default X-Arbiter-Verdict. */
  header?: string;
  /** Verdicts that let the operation through. Default ['allowed']. */
  acceptVerdicts?: string[];
  /** The tenant the verdicts must come from. */
  tenantId?: string;
  /**
   * Refuse verdicts of keys retired since they signed (docs/verdicts.md "Versioning": after an emergency rotation,
   * in-flight verdicts are refused by policy at the enforcement point). Default true.
   */
  refuseRetiredKeys?: boolean;
  clockToleranceSeconds?: number;
  /** Clock (tests). */
  now?: () => number;
  /**
   * Lets each verdict through once: its `jti` (the consultation id) is remembered until its `exp`
   * (MemoryReplayGuard for one process, redisReplayGuard for replicas). A second presentation is 403
   * verdict_replayed; a guard that cannot answer is 503 verdict_unverifiable. Strongly advised: without
   * it a verdict can be replayed for the same operation until it expires.
   */
  replayGuard?: ReplayGuard;
  /** Called with every refusal, e.g. to log or count it. */
  onRefuse?: (req: Request, refusal: { code: RefusalCode; message: string; details?: unknown }) => void;
}

/** The verified verdict of a request that passed, as requireVerdict left it in res.locals. */
export const verdictOf = (res: Response): VerifiedVerdict | undefined => res.locals.arbiterVerdict as VerifiedVerdict | undefined;

const BINDING_FIELDS = ['action', 'resource', 'scope', 'parameters'] as const;

/**
 * context_hash of an operation and its context Facts, as the gateway computes it (docs/verdicts.md "Hashes
 * and the signed verdict"): sha256 over the RFC 8785 JSON of {action, resource, scope, parameters, context}.
 */
export function operationContextHash(op: {
  action: string;
  resource: string;
  scope: Record<string, unknown>;
  parameters?: Record<string, unknown>;
  context?: Record<string, unknown>;
}): string {
  return sha256Digest({
    action: op.action,
    resource: op.resource,
    scope: op.scope,
    parameters: op.parameters ?? {},
    context: op.context ?? {},
  });
}

/** Which bindings differ between the claims and the operation (canonical JSON comparison); `context` when its hash differs. */
export function bindingMismatches(claims: Record<string, unknown>, binding: VerdictBinding): string[] {
  const expected: Record<string, unknown> = { ...binding, parameters: binding.parameters ?? {} };
  const out: string[] = BINDING_FIELDS.filter((f) => {
    try {
      return canonicalJson(claims[f] ?? null) !== canonicalJson(expected[f] ?? null);
    } catch {
      return true; // a value without a canonical form cannot be shown to match
    }
  });
  if (binding.context !== undefined) {
    let hash: string | null;
    try {
      hash = operationContextHash(binding);
    } catch {
      hash = null;
    }
    if (hash === null || claims.context_hash !== hash) out.push('context');
  }
  return out;
}

function refusalOf(err: unknown): { code: RefusalCode; message: string; status: number } {
  if (err instanceof VerdictVerificationError) {
    if (err.code === 'expired') return { code: 'verdict_expired', message: err.message, status: 403 };
    if (err.code === 'key_retired') return { code: 'verdict_key_retired', message: err.message, status: 403 };
    // The key set could not be had: a fault on our side, not the caller's.
    if (err.code === 'jwks_unavailable') return { code: 'verdict_unverifiable', message: err.message, status: 503 };
    return { code: 'verdict_invalid', message: `${err.code}: ${err.message}`, status: 403 };
  }
  return { code: 'verdict_unverifiable', message: (err as Error)?.message ?? String(err), status: 503 };
}

export function requireVerdict(opts: RequireVerdictOptions): RequestHandler {
  const header = (opts.header ?? 'X-Arbiter-Verdict').toLowerCase();
  const accept = opts.acceptVerdicts ?? ['allowed'];
  return async (req: Request, res: Response, next: NextFunction) => {
    const refuse = (status: number, code: RefusalCode, message: string, details?: unknown) => {
      opts.onRefuse?.(req, { code, message, details });
      res.status(status).json({ code, message, ...(details === undefined ? {} : { details }) });
    };
    try {
      const jws = req.get(header);
      if (!jws)
        return refuse(403, 'verdict_missing', `this operation needs a signed verdict in the ${opts.header ?? 'X-Arbiter-Verdict'} header`);
      let verified: VerifiedVerdict;
      try {
        verified = await verifyVerdict(jws, {
          jwks: opts.jwks,
          jwksUrl: opts.jwksUrl,
          fetch: opts.fetch,
          tenantId: opts.tenantId,
          refuseRetiredKeys: opts.refuseRetiredKeys ?? true,
          clockToleranceSeconds: opts.clockToleranceSeconds,
          now: opts.now?.(),
        });
      } catch (err) {
        const r = refusalOf(err);
        return refuse(r.status, r.code, r.message);
      }
      const { claims } = verified;
      if (!accept.includes(claims.verdict)) {
        return refuse(403, 'verdict_not_allowed', `the verdict is ${claims.verdict}, not ${accept.join(' or ')}`, {
          verdict: claims.verdict,
          consultation_id: claims.jti,
        });
      }
      const binding = await opts.binding(req);
      const differing = bindingMismatches(claims, binding);
      if (differing.length) {
        return refuse(403, 'verdict_binding_mismatch', `the verdict is bound to another ${differing.join(', ')} than this operation`, {
          fields: differing,
          consultation_id: claims.jti,
        });
      }
      // Last, so that a refused presentation never uses the verdict up.
      if (opts.replayGuard) {
        let first: boolean;
        try {
          first = await opts.replayGuard.firstUse(`${claims.tenant_id}:${claims.jti}`, verified.expiresAt.getTime());
        } catch (err) {
          return refuse(
            503,
            'verdict_unverifiable',
            `the replay guard cannot tell whether this verdict was used: ${(err as Error)?.message ?? String(err)}`,
          );
        }
        if (!first)
          return refuse(403, 'verdict_replayed', 'this verdict was used before: ask for a new one', { consultation_id: claims.jti });
      }
      res.locals.arbiterVerdict = verified;
      next();
    } catch (err) {
      next(err);
    }
  };
}

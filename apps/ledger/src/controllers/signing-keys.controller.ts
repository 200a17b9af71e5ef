import { Body, Controller, Get, Middlewares, Post, Request, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { AuthedRequest } from '@arbiter/auth';
import { CryptoError } from '@arbiter/crypto';
import { validationError } from '../domain/errors';
import type { LedgerContext } from '../context';
import { publishedKeySet, rotateLedgerKey } from '../keys';
import type { ErrorBody } from '../models/errors';
import type { KeyRotation, LedgerKeySet, RotateKeysBody } from '../models/ledger';
import { refuseUnstorable } from '../http/unstorable';

/** Public bundle verification keys (docs/ledger-formats.md): no authentication, every key ever used. */
@Middlewares(refuseUnstorable)
@Route('.well-known')
@Tags('Keys')
export class LedgerKeysController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * Ed25519 public keys as RFC 8037 JWKs with their validity windows; retired keys stay listed. Each
   * rotation's transition statement, signed by the retired key and the new one, extends a verifier's trust.
   * @summary Bundle and checkpoint verification keys
   */
  @Get('ledger-keys')
  @Response<ErrorBody>(400, 'VALIDATION_ERROR: a query string holding U+0000')
  @Response<ErrorBody>(
    429,
    "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
  )
  async ledgerKeys(): Promise<LedgerKeySet> {
    // New keys appear at rotation, so caches must not keep this for long.
    this.setHeader('Cache-Control', 'public, max-age=300');
    return publishedKeySet(this.ctx.keys, this.ctx.keyTransitions);
  }
}

@Middlewares(refuseUnstorable)
@Route('admin/signing-keys')
@Tags('Keys')
export class SigningKeysAdminController extends Controller {
  constructor(private readonly ctx: LedgerContext) {
    super();
  }

  /**
   * Rotates the bundle signing key (platform admins only). `scheduled` makes this year's key and is
   * refused with 400 when it exists; `emergency` makes `ledger:<year>.<n>` at once. The previous key
   * is retired (not_after = now) and stays published. Also: `ledger-cli keys rotate --mode ...`.
   * @summary Rotate the ledger signing key
   */
  @Post('rotate')
  @Security('apiKey', ['platform_admin'])
  @SuccessResponse(201, 'Rotated')
  @Response<ErrorBody>(400, 'VALIDATION_ERROR (e.g. a scheduled rotation that is not due)')
  @Response<ErrorBody>(401, 'UNAUTHORIZED')
  @Response<ErrorBody>(403, 'FORBIDDEN: platform_admin required')
  @Response<ErrorBody>(
    429,
    "RATE_LIMITED: the token bucket (the key's, or the client address's without a valid key) is empty; Retry-After says when to retry",
  )
  async rotateSigningKey(@Request() _req: AuthedRequest, @Body() body: RotateKeysBody): Promise<KeyRotation> {
    const rotation = await rotateLedgerKey(this.ctx.keys, body.mode).catch((err: unknown) => {
      throw err instanceof CryptoError && err.code === 'rotation_not_due' ? validationError(err.message, 'mode') : err;
    });
    this.ctx.metrics.keyRotations.inc({ mode: body.mode });
    this.setStatus(201);
    return rotation;
  }
}

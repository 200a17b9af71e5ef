import type { NextFunction, Request, Response } from 'express';
import type { AuthedRequest } from '@arbiter/auth';
import type { VerdictContext } from '../context';

/**
 * POST /<tenant_id>/v1/simulations (`@Middlewares` of SimulationsController.simulate): tsoa has checked
 * the credentials and the `manage_rules` permission; the body is checked once, by
 * http/simulation-request.ts (errors naming `changes[i]`), not by tsoa's own validation.
 */
export function simulationRoute(req: Request, res: Response, next: NextFunction): void {
  const ctx = req.app.locals.ctx as VerdictContext;
  ctx.simulations.simulate((req as AuthedRequest).user, String(req.params.tenant_id), req.body).then((answer) => {
    res.status(200).json(answer);
  }, next);
}

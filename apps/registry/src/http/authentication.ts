import type { Request } from 'express';
import type { Identity } from '@arbiter/auth';
import type { RegistryContext } from '../context';

/** tsoa's authentication hook: `@Security('bearer', ['permission'])` on a handler. */
export async function expressAuthentication(request: Request, _securityName: string, scopes?: string[]): Promise<Identity> {
  const ctx = request.app.locals.ctx as RegistryContext;
  return ctx.authenticator.authenticate(request.headers, scopes ?? []);
}

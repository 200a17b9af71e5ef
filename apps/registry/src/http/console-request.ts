import type { Request, Response } from 'express';
import { cookieValue } from '@arbiter/http';
import type { RegistryConfig } from '../config';
import { cookieSecure, isTokenFormat, SESSION_COOKIE } from '../domain/console-cookies';
import { publicBaseOf } from './public-base';

/**
 * What every console route reads from a request: the session cookie, the registry's public base and own origins, and
 * whether cookies must be Secure. Shared by the sign-in routes and the API routes (docs/identity.md "Console sign-in").
 */
export function sessionTokenOf(req: Request): string | undefined {
  const token = cookieValue(req.headers.cookie, SESSION_COOKIE);
  return isTokenFormat(token) ? token : undefined;
}

/** The origins a same-origin browser request names: the public base's, and both loopback spellings when it is the default. */
export function ownOriginsOf(req: Request, config: Pick<RegistryConfig, 'REGISTRY_PUBLIC_URL'>): string[] {
  const base = new URL(publicBaseOf(req, config)).origin;
  if (config.REGISTRY_PUBLIC_URL) return [base];
  const port = req.socket.localPort;
  return [base, `http://localhost:${port}`, `http://[::1]:${port}`];
}

/**
 * Secure except on loopback (domain/console-cookies.ts): the public base must be plain http on a loopback host AND the
 * request must have arrived on a loopback address; anything else keeps Secure, so a misconfiguration fails closed.
 */
export function secureCookiesFor(req: Request, config: Pick<RegistryConfig, 'REGISTRY_PUBLIC_URL'>): boolean {
  const local = (req.socket.localAddress ?? '').replace(/^::ffff:/, '');
  const loopbackSocket = local === '::1' || /^127(\.\d{1,3}){3}$/.test(local);
  return cookieSecure(publicBaseOf(req, config)) || !loopbackSocket;
}

/** HTML and API answers of the console are never stored by a cache. */
export function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
}

/** A request header sent once, as a string. */
export function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

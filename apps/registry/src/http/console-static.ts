import fs from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { AppError } from '@arbiter/http';
import { noStore } from './console-request';

/**
 * The console's Content-Security-Policy (docs/identity.md "Console sign-in"): only the registry's own scripts, styles,
 * images, fonts and fetches; no inline script or style, no remote origin, no framing, no <base>, forms post here only.
 */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Built assets carry a content hash in their name (apps/console/build.mjs): they may be cached for good. */
const HASHED_ASSET = /-[A-Za-z0-9]{8,}\.(js|css|map|woff2?|png|svg)$/;

/** Where the built app is: next to the bundle (dist/apps/registry/console), or apps/console/dist in a checkout. */
export function consoleDir(): string {
  const candidates = [path.join(__dirname, 'console'), path.resolve(__dirname, '../../../console/dist')];
  return candidates.find((d) => fs.existsSync(path.join(d, 'index.html'))) ?? candidates[candidates.length - 1];
}

/** Every answer under /console carries the CSP and its companions, sign-in pages and API answers included. */
export function mountConsoleHeaders(app: Express): void {
  app.use('/console', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
}

/**
 * The app's files, and index.html for every other GET under /console/ (the app routes on the path), except the API
 * and sign-in paths, which answer for themselves. Mounted after them.
 */
export function mountConsoleStatic(app: Express, dir = consoleDir()): void {
  // Without strict routing '/console' would match '/console/' too.
  app.get(/^\/console$/, (_req, res) => res.redirect(301, '/console/'));
  app.use(
    '/console',
    express.static(dir, {
      index: false,
      redirect: false,
      setHeaders: (res, file) => {
        res.setHeader('Cache-Control', HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-store');
      },
    }),
  );
  app.get(/^\/console\/(?!api(\/|$)|auth(\/|$)).*$/, (_req, res) => {
    const index = path.join(dir, 'index.html');
    if (!fs.existsSync(index)) throw new AppError(503, 'unavailable', 'The console is not built (node apps/console/build.mjs)');
    noStore(res);
    res.type('html').sendFile(index);
  });
}

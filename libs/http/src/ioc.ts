import type { Request } from 'express';
import type { IocContainer } from '@tsoa/runtime';

/**
 * tsoa's IoC hook: controllers are made per request from the app's context (`app.locals.ctx`),
 * so several apps with different configs can share one process (tests).
 */
export function iocContainer(request: Request): IocContainer {
  const ctx = request.app.locals.ctx;
  return { get: (Ctor: unknown) => new (Ctor as new (c: unknown) => unknown)(ctx) } as IocContainer;
}

import type { Request } from 'express';
import type { IocContainer } from '@tsoa/runtime';
import type { RegistryContext } from '../context';

type ControllerClass = new (ctx: RegistryContext) => unknown;

/** Controllers are made per request from the app's context, so several apps can share a process (tests). */
export function iocContainer(request: Request): IocContainer {
  const ctx = request.app.locals.ctx as RegistryContext;
  return { get: (Ctor: unknown) => new (Ctor as ControllerClass)(ctx) } as IocContainer;
}

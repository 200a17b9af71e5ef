import type { ServerResponse } from 'node:http';
import type { Controller } from '@tsoa/runtime';
import type { Request, RequestHandler, Response } from 'express';
import { sendJson } from './fast-lane';
import { iocContainer } from './ioc';

/**
 * The `@Middlewares` of a tsoa method that validates its own body (the hot routes, ADR 0006 and 0020):
 * it runs the controller's method itself, with the body as express parsed it, and answers as tsoa
 * answers a method's result (the status and headers the method set, then the result as JSON). tsoa's
 * generic validation of the body, which would refuse a bad body in other words than the route's
 * contract names (and than its fast lane, which calls the same method), never runs: the method is the
 * route's one handler, on both doors. `call` maps the request onto the method's parameters, as the
 * tsoa route would.
 */
export function ownBody<C extends Controller>(
  Ctor: abstract new (...args: never[]) => C,
  call: (controller: C, req: Request) => Promise<unknown>,
): RequestHandler {
  return (req, res, next) => {
    const controller = iocContainer(req).get<C>(Ctor as never) as C;
    call(controller, req).then((result) => answer(controller, res, result), next);
  };
}

/** A controller method's result as tsoa sends it: its status (200 unless set), its headers, the JSON. */
export function answer(controller: Controller, res: Response | ServerResponse, result: unknown): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(controller.getHeaders())) if (value !== undefined) headers[name] = String(value);
  const status = controller.getStatus() ?? 200;
  if ('json' in res && typeof res.json === 'function') {
    res.set(headers).status(status).json(result);
    return;
  }
  sendJson(res, status, result, headers);
}

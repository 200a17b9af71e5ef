import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ErrorDialect } from './errors';
import { fastLaneBodyLength, readJsonBody } from './fast-lane';
import { renderError } from './render-error';
import { trackRequest } from './request-log';

/**
 * A hot route served before express (ADR 0006). Express's per-request work (the router, the request
 * and response prototypes it swaps in, which also slow every later access to them) cost about a third
 * of a verdict check's CPU; a lane answers the request on the plain node:http objects instead.
 */
export interface FastLane {
  method: string;
  /**
   * Matched against the path without its query; capture groups are the route parameters (URI-decoded).
   * It must match no request the express route of the same name would not (express matches without
   * case and with an optional trailing slash): what the lane does not take goes to express.
   */
  pattern: RegExp;
  /** The `route` label of the HTTP metrics, as express gives it, e.g. `/:tenant_id/v1/check`. */
  route: string;
  /**
   * Work that must come before the body is read (e.g. a rate limit, whose answer does not depend on
   * the body), as the service's `before` middleware does for express routes. Throwing answers the error.
   */
  beforeBody?(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Answers the request with its parsed JSON body; whatever it throws is answered in the service's dialect. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown, params: string[]): Promise<void>;
}

export interface LaneDispatchOptions {
  lanes: readonly FastLane[];
  bodyLimitBytes: number;
  dialect: ErrorDialect;
  logger: Logger;
  /** The HTTP metrics of the app (metrics.ts httpObserver). */
  observe: (req: IncomingMessage, res: ServerResponse, route: () => string) => void;
}

/** (req, res) → true when a lane took the request (and will answer it), false to hand it to express. */
export type LaneDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

export function laneDispatcher(o: LaneDispatchOptions): LaneDispatch {
  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    for (const lane of o.lanes) {
      if (req.method !== lane.method) continue;
      const match = lane.pattern.exec(path);
      if (!match) continue;
      const length = fastLaneBodyLength(req, o.bodyLimitBytes);
      if (length === null) return false;
      let params: string[];
      try {
        params = match.slice(1).map((p) => decodeURIComponent(p));
      } catch {
        return false; // express answers a parameter it cannot decode
      }
      const route = lane.route;
      o.observe(req, res, () => route);
      trackRequest(o.logger, req, res);
      (lane.beforeBody ? lane.beforeBody(req, res) : Promise.resolve())
        .then(() => readJsonBody(req, length))
        .then((body) => lane.handle(req, res, body, params))
        .catch((err: unknown) => renderError(err, req, res, o.dialect, o.logger));
      return true;
    }
    return false;
  };
}

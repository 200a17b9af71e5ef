// libs/http/src/request-log.ts against pino-http: the server CPU per request of a small JSON answer, with no
// request logging, with libs/http's trackRequest, and with pino-http configured as the services had it before
// (commit 00ed7b7), each logging through the services' own pino logger (createLogger) to /dev/null.
// Run with `node bench/handwritten/run.mjs request-log`; results in docs/benchmarks.md
// "Hand-written pieces against their libraries".
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { sendJson } from '../../libs/http/src/fast-lane';
import { createLogger } from '../../libs/http/src/logger';
import { requestIdFor } from '../../libs/http/src/request-id';
import { trackRequest } from '../../libs/http/src/request-log';
import { printMachine, printServerCpu, serveInChild } from './common';

const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const VARIANTS = ['none', 'request-log info', 'pino-http info', 'request-log warn', 'pino-http warn'];
const ANSWER = { decision: 'allow', id: '0193a1b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b', reasons: [] };

function handlerFor(variant: string) {
  const level = variant.endsWith('warn') ? 'warn' : 'info';
  const logger = createLogger('bench', level);
  const answer = (res: ServerResponse) => sendJson(res, 200, ANSWER);
  if (variant === 'none') return (req: IncomingMessage, res: ServerResponse) => answer(res);
  if (variant.startsWith('request-log')) {
    return (req: IncomingMessage, res: ServerResponse) => {
      trackRequest(logger, req, res);
      answer(res);
    };
  }
  // The configuration libs/http/src/app.ts had until commit 00ed7b7.
  const log = pinoHttp({
    logger,
    genReqId: (req, res) => requestIdFor(req, res),
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    autoLogging: { ignore: (req) => req.url === '/livez' || req.url === '/readyz' || req.url === '/metrics' },
  });
  return (req: IncomingMessage, res: ServerResponse) => {
    log(req, res);
    answer(res);
  };
}

async function main() {
  if (args[0] === '--serve') return serveInChild(handlerFor(args[1]!));
  printMachine('request-log vs pino-http');
  // A request as an SDK sends it: an API key (redacted by the logger), a user agent, a request id.
  await printServerCpu(
    '',
    VARIANTS,
    'none',
    {
      method: 'GET',
      path: '/v1/decisions/0193a1b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b',
      headers: {
        'x-api-key': 'ak_bench_0123456789abcdef',
        'user-agent': 'arbiter-client/0.1.0',
        accept: 'application/json',
        'x-request-id': 'bench-1',
      },
    },
    QUICK,
  );
  printMachine('at the end');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

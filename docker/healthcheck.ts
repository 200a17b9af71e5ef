// The container HEALTHCHECK of every image (docker/Dockerfile): `node healthcheck.js`, exit 0 when healthy.
// - HTTP services: GET /readyz on the process's own port (PORT, else the service's default), 200 = healthy, so the
//   database, its migrations and Redis are covered (libs/http health checks).
// - The worker serves no HTTP: it is "healthy" while its Redis answers PING. That shows the queue store is reachable,
//   not that the process is making progress (docs/operations.md, "Worker health"). When the worker gets an
//   ops port (libs/http startOpsServer), set HEALTHCHECK_URL to its /readyz and this checks that instead.
// Bundled by scripts/bundle.mjs; node built-ins only, so it starts fast and needs no dependency.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';

export const DEFAULT_PORTS: Record<string, number> = { registry: 3001, verdict: 3002, ledger: 3003 };
const TIMEOUT_MS = 3000;

export type HealthTarget = { kind: 'http'; url: string } | { kind: 'redis'; url: string };

export class HealthcheckError extends Error {
  constructor(
    readonly code: 'no_target' | 'unhealthy' | 'unreachable' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'HealthcheckError';
  }
}

/** What to check, from the environment the service itself runs with. */
export function healthTarget(env: NodeJS.ProcessEnv): HealthTarget {
  if (env.HEALTHCHECK_URL) return { kind: 'http', url: env.HEALTHCHECK_URL };
  const service = env.ARBITER_SERVICE ?? '';
  const port = env.PORT || DEFAULT_PORTS[service];
  if (port) return { kind: 'http', url: `http://127.0.0.1:${port}/readyz` };
  if (env.REDIS_URL) return { kind: 'redis', url: env.REDIS_URL };
  throw new HealthcheckError('no_target', `nothing to check for service "${service}": set PORT, REDIS_URL or HEALTHCHECK_URL`);
}

/** Resolves when the URL answers 200 within the timeout. */
export function checkHttp(url: string, timeoutMs = TIMEOUT_MS): Promise<void> {
  const client = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(url, { timeout: timeoutMs, agent: false }, (res) => {
      res.resume();
      if (res.statusCode === 200) resolve();
      else reject(new HealthcheckError('unhealthy', `${url} answered ${res.statusCode}`));
    });
    req.on('timeout', () => req.destroy(new HealthcheckError('timeout', `${url} did not answer in ${timeoutMs} ms`)));
    req.on('error', (err) => reject(err instanceof HealthcheckError ? err : new HealthcheckError('unreachable', `${url}: ${err.message}`)));
  });
}

/** A RESP array of bulk strings (the Redis protocol's request form). */
function command(...args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

/** Resolves when Redis answers PING (after AUTH when the URL carries credentials). */
export function checkRedis(redisUrl: string, timeoutMs = TIMEOUT_MS): Promise<void> {
  const u = new URL(redisUrl);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || 6379);
  const commands: string[] = [];
  const password = decodeURIComponent(u.password);
  const username = decodeURIComponent(u.username);
  if (password) commands.push(username ? command('AUTH', username, password) : command('AUTH', password));
  commands.push(command('PING'));
  return new Promise((resolve, reject) => {
    const socket =
      u.protocol === 'rediss:' ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    const fail = (err: HealthcheckError) => {
      socket.destroy();
      reject(err);
    };
    socket.setTimeout(timeoutMs, () => fail(new HealthcheckError('timeout', `redis ${host}:${port} did not answer in ${timeoutMs} ms`)));
    socket.once(u.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => socket.write(commands.join('')));
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const replies = buffer.split('\r\n').slice(0, -1);
      const error = replies.find((r) => r.startsWith('-'));
      if (error) return fail(new HealthcheckError('unhealthy', `redis answered ${error.slice(1)}`));
      if (replies.length < commands.length) return;
      if (replies[replies.length - 1] === '+PONG') {
        socket.end();
        resolve();
      } else {
        fail(new HealthcheckError('unhealthy', `redis answered ${replies[replies.length - 1]}`));
      }
    });
    socket.on('error', (err) => fail(new HealthcheckError('unreachable', `redis ${host}:${port}: ${err.message}`)));
  });
}

export async function healthcheck(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const target = healthTarget(env);
  if (target.kind === 'http') await checkHttp(target.url);
  else await checkRedis(target.url);
}

if (require.main === module) {
  healthcheck().then(
    () => process.exit(0),
    (err: Error) => {
      // Docker keeps the last lines of a failing check in `docker inspect` (State.Health.Log).
      process.stderr.write(`unhealthy: ${err.message}\n`);
      process.exit(1);
    },
  );
}

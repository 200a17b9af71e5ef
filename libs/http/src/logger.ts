import pino, { type Logger } from 'pino';

/** pino with the service name on every line; LOG_LEVEL picks the level (tests default to silent). */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? (process.env.JEST_WORKER_ID ? 'silent' : 'info')): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
  });
}

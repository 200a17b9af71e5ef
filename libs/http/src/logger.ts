import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * pino with the service name on every line; LOG_LEVEL picks the level (tests default to silent). `destination`
 * (default stdout) lets a test keep the lines it reads back.
 */
export function createLogger(
  service: string,
  level = process.env.LOG_LEVEL ?? (process.env.JEST_WORKER_ID ? 'silent' : 'info'),
  destination?: DestinationStream,
): Logger {
  const options = {
    name: service,
    level,
    base: { service },
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
  };
  return destination ? pino(options, destination) : pino(options);
}

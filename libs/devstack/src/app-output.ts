/**
 * What `npm start` shows of an app's own output (README.md "Quick start"): the apps log JSON lines (pino), one per
 * request and per relay poll at level info, which would drown the terminal. Without ARBITER_SERVER_LOGS=1 only errors
 * (level 50 and above) and lines that are not JSON at all (a crash's stack trace) are shown; the rest is kept in the
 * app's LogTail and printed if the app fails. Pure.
 */

/** pino's numeric levels: 30 info, 40 warn, 50 error, 60 fatal. */
export const SHOWN_LEVEL = 50;

export interface AppLine {
  /** Undefined for a line that is not a JSON log record. */
  level?: number;
  msg?: string;
}

export function parseAppLine(line: string): AppLine {
  if (!line.startsWith('{')) return {};
  try {
    const record = JSON.parse(line) as { level?: unknown; msg?: unknown };
    if (record === null || typeof record !== 'object') return {};
    return {
      level: typeof record.level === 'number' ? record.level : undefined,
      msg: typeof record.msg === 'string' ? record.msg : undefined,
    };
  } catch {
    return {};
  }
}

/** Whether a quiet `npm start` shows this line of an app's output. */
export function showInQuietMode(line: string): boolean {
  if (!line.startsWith('{')) return line.trim() !== '';
  const { level } = parseAppLine(line);
  return level === undefined || level >= SHOWN_LEVEL;
}

/** The line a process without an HTTP port (the worker) logs once it runs (libs/http runMain: "<service> started"). */
export function isStartedLine(name: string, line: string): boolean {
  return parseAppLine(line).msg === `${name} started`;
}

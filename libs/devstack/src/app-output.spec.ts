import { isStartedLine, parseAppLine, showInQuietMode } from './app-output';

describe('showInQuietMode', () => {
  const record = (level: number, msg = 'x') => JSON.stringify({ level, time: 1, service: 'registry', msg });

  it('hides info and warn records: request logs, relay polls, migrations', () => {
    expect(showInQuietMode(record(30, 'request completed'))).toBe(false);
    expect(showInQuietMode(record(40, 'relay pass failed: registry unreachable'))).toBe(false);
    expect(showInQuietMode(record(20))).toBe(false);
  });

  it('shows errors, fatal records, and anything that is not a log record (a stack trace)', () => {
    expect(showInQuietMode(record(50))).toBe(true);
    expect(showInQuietMode(record(60))).toBe(true);
    expect(showInQuietMode('TypeError: boom')).toBe(true);
    expect(showInQuietMode('    at main (/app/main.js:1:1)')).toBe(true);
    expect(showInQuietMode('{ not json')).toBe(true);
    expect(showInQuietMode('{"msg":"no level"}')).toBe(true);
  });

  it('hides blank lines', () => {
    expect(showInQuietMode('')).toBe(false);
    expect(showInQuietMode('   ')).toBe(false);
  });
});

describe('parseAppLine / isStartedLine', () => {
  it('reads the level and message of a record, nothing of other lines', () => {
    expect(parseAppLine('{"level":30,"msg":"listening"}')).toEqual({ level: 30, msg: 'listening' });
    expect(parseAppLine('null')).toEqual({});
    expect(parseAppLine('{"level":"high"}')).toEqual({ level: undefined, msg: undefined });
  });

  it('recognises "<name> started" of that app only', () => {
    expect(isStartedLine('worker', '{"level":30,"msg":"worker started"}')).toBe(true);
    expect(isStartedLine('worker', '{"level":30,"msg":"registry started"}')).toBe(false);
    expect(isStartedLine('worker', 'worker started')).toBe(false);
  });
});

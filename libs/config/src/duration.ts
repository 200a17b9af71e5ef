import type { FieldSpec } from './load-config';

// Durations as operators and tenants write them (docs/operations.md "Retention"): a positive integer and a
// unit, s, m, h or d (`90s`, `2m`, `12h`, `90d`). One parser for the configuration variables
// (PARTITION_INTERVAL, RETENTION_MIN, MAINTENANCE_INTERVAL...) and the tenant's `settings.retention`.

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^([1-9][0-9]{0,9})([smhd])$/;

/** The milliseconds of a duration (`90s`, `2m`, `12h`, `90d`), or null when `text` is not one. */
export function durationMs(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = DURATION.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2]] : null;
}

/** The shortest way to write `ms` as a duration (`86400000` → `1d`); whole seconds only. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${Math.round(ms / 1000)}s`;
}

interface DurationOptions {
  /** A duration text (`1d`). */
  default?: string;
  optional?: boolean;
  /** Bounds as duration texts (`1m`, `31d`), inclusive. */
  min?: string;
  max?: string;
  doc?: string;
}

/** A configuration variable holding a duration: parsed to milliseconds, within `[min, max]`. */
export function duration(opts: DurationOptions = {}): FieldSpec<number> {
  const bound = (text: string | undefined) => (text === undefined ? undefined : (durationMs(text) ?? undefined));
  const min = bound(opts.min);
  const max = bound(opts.max);
  const parse = (raw: string): number => {
    const ms = durationMs(raw.trim());
    if (ms === null) throw new Error('must be a duration: an integer and s, m, h or d (e.g. 90s, 5m, 1h, 1d)');
    if (min !== undefined && ms < min) throw new Error(`must be at least ${opts.min}`);
    if (max !== undefined && ms > max) throw new Error(`must be at most ${opts.max}`);
    return ms;
  };
  return {
    optional: opts.optional,
    doc: opts.doc,
    default: opts.default === undefined ? undefined : parse(opts.default),
    parse,
  };
}

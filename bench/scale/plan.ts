// The pure half of the scale benchmark (bench/scale/run.ts; docs/benchmarks.md "Scale: partitions, retention and
// archive"): its options, where the seeded consultations lie in time, the statistics and the printed report.
// No I/O here.

export const DAY_MS = 86_400_000;

export interface ScaleOptions {
  /** Consultations of the big tenant over its 90 live daily partitions (its past ones come on top). */
  consultations: number;
  /** Requests per round of the first page of the list. */
  pageRequests: number;
  rounds: number;
  /** Where the JSON of the results goes, if anywhere. */
  json?: string;
  quick: boolean;
  /**
   * Records of each of the big tenant's 3 past days (its large past partitions), oldest first; by default N/90 each
   * like its live days. `--past-rows 11111,33333,111111` gives partitions of several sizes, up to a day of the full
   * ten million, without seeding ten million.
   */
  pastRows?: number[];
}

const USAGE =
  'usage: node bench/scale/bench.mjs [--quick] [--consultations N] [--past-rows A,B,C] [--rounds N] [--page-requests N] [--json FILE]';

function positiveInt(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (raw === undefined || !Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer (${USAGE})`);
  return n;
}

/** Parses the command line; throws on an unknown or malformed option. */
export function parseScaleArgs(argv: readonly string[]): ScaleOptions {
  const quick = argv.includes('--quick');
  const out: ScaleOptions = { consultations: quick ? 1_000_000 : 10_000_000, pageRequests: 300, rounds: 3, quick };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') continue;
    const value = argv[i + 1];
    if (a === '--consultations') out.consultations = positiveInt(a, value);
    else if (a === '--rounds') out.rounds = positiveInt(a, value);
    else if (a === '--page-requests') out.pageRequests = positiveInt(a, value);
    else if (a === '--past-rows') {
      const each = (value ?? '').split(',');
      if (each.length !== PAST_DAYS) throw new Error(`--past-rows needs ${PAST_DAYS} counts, comma-separated (${USAGE})`);
      out.pastRows = each.map((n) => positiveInt(a, n));
    } else if (a === '--json') {
      if (value === undefined || value.startsWith('--')) throw new Error(`--json needs a file (${USAGE})`);
      out.json = value;
    } else throw new Error(`unknown option ${a} (${USAGE})`);
    i++;
  }
  if (out.consultations < LIVE_DAYS) throw new Error(`--consultations must be at least ${LIVE_DAYS} (one a day)`);
  return out;
}

/** The big tenant's live daily partitions: a retention of 90 days, its records of the last 90 days. */
export const LIVE_DAYS = 90;
/** Past partitions of the big tenant (a day of its records each) and of the short-retention tenant. */
export const PAST_DAYS = 3;

/** One tenant's seeded consultations: `count` records spread evenly over requested_at in [from, to). */
export interface SeedSpan {
  tenant: 'big' | 'short' | 'month' | 'quarter';
  /** settings.retention.consultations of the tenant. */
  retention: string;
  retentionMs: number;
  from: number;
  to: number;
  count: number;
}

/**
 * Where the records lie, `today` being the start of the current UTC day (T):
 * - the big tenant (retention 90d): N/90 records a day over requested_at [T-93d, T), so keep_until lies in
 *   [T-3d, T+90d): 90 live daily partitions of N/90 each, and 3 past ones (keep_until before T) of a day each
 *   (`pastRows`: of those sizes instead; the big tenant's spans come first, the live one last);
 * - a small tenant with a retention of 1 day whose records stopped four days ago: requested_at [T-7d, T-4d),
 *   keep_until [T-6d, T-3d): 3 past partitions holding only its records (the small partitions);
 * - two small tenants with retentions of 30 and 90 days, records up to T, sharing the big tenant's partitions.
 */
export function seedSpans(consultations: number, today: number, pastRows?: readonly number[]): SeedSpan[] {
  const perDay = Math.floor(consultations / LIVE_DAYS);
  const small = Math.max(1_000, Math.floor(consultations / 500));
  const shortPerDay = Math.max(100, Math.floor(consultations / 2_000));
  const big = { tenant: 'big', retention: '90d', retentionMs: 90 * DAY_MS } as const;
  const start = today - (LIVE_DAYS + PAST_DAYS) * DAY_MS;
  // With --past-rows, one span per past day of its own size, then the live days.
  const bigSpans: SeedSpan[] = pastRows
    ? [
        ...pastRows.map((count, d) => ({ ...big, from: start + d * DAY_MS, to: start + (d + 1) * DAY_MS, count })),
        { ...big, from: today - LIVE_DAYS * DAY_MS, to: today, count: perDay * LIVE_DAYS },
      ]
    : [{ ...big, from: start, to: today, count: perDay * (LIVE_DAYS + PAST_DAYS) }];
  return [
    ...bigSpans,
    {
      tenant: 'short',
      retention: '1d',
      retentionMs: DAY_MS,
      from: today - 7 * DAY_MS,
      to: today - 4 * DAY_MS,
      count: shortPerDay * PAST_DAYS,
    },
    { tenant: 'month', retention: '30d', retentionMs: 30 * DAY_MS, from: today - 30 * DAY_MS, to: today, count: small },
    { tenant: 'quarter', retention: '90d', retentionMs: 90 * DAY_MS, from: today - 90 * DAY_MS, to: today, count: small },
  ];
}

/** The requested_at of the i-th of a span's records (evenly spaced, whole milliseconds, increasing). */
export function timeOf(span: SeedSpan, i: number): number {
  return span.from + Math.floor(((i + 0.5) * (span.to - span.from)) / span.count);
}

/** The range of keep_until every span covers: the partitions to make before the seed, [from, to). */
export function keepUntilRange(spans: readonly SeedSpan[], intervalMs: number): { from: number; to: number } {
  const from = Math.min(...spans.map((s) => s.from + s.retentionMs));
  const to = Math.max(...spans.map((s) => s.to + s.retentionMs));
  return { from: Math.floor(from / intervalMs) * intervalMs, to: Math.ceil(to / intervalMs) * intervalMs };
}

/**
 * A time-ordered consultation id as the gateway makes them (`cns-`, 12 hex of the millisecond, 12 more): here the
 * 12 more are a counter instead of random, so a seed is unique without a random source per row.
 */
export function seedId(ms: number, seq: number): string {
  return `cns-${ms.toString(16).padStart(12, '0')}${seq.toString(16).padStart(12, '0')}`;
}

/** A record text cut around the places a seeded row changes: its id, requested_at and one numeric parameter. */
export interface RecordTemplate {
  pieces: string[];
  /** Which value goes between pieces[i] and pieces[i + 1]. */
  slots: Array<'id' | 'requested_at' | 'number'>;
}

const SENTINELS = { id: 'cns-SEEDIDSEEDIDSEEDIDSEEDID', requested_at: 'SEED-REQUESTED-AT', number: 987654321987 } as const;

/** The path of the first numeric member of `parameters`, depth first, or null. */
function firstNumberPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'number') return path;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  for (const [k, v] of Object.entries(value)) {
    const found = firstNumberPath(v, [...path, k]);
    if (found) return found;
  }
  return null;
}

/**
 * Cuts a real record (its stored JSON text) into a template. The record is read and written back with
 * JSON.parse/JSON.stringify, which keeps its members in order; the pieces are escaped for COPY's text format.
 */
export function recordTemplate(recordText: string): RecordTemplate {
  const record = JSON.parse(recordText) as Record<string, unknown>;
  record.id = SENTINELS.id;
  record.requested_at = SENTINELS.requested_at;
  const numberPath = firstNumberPath(record.parameters);
  if (numberPath && numberPath.length > 0) {
    let holder = record.parameters as Record<string, unknown>;
    for (const k of numberPath.slice(0, -1)) holder = holder[k] as Record<string, unknown>;
    holder[numberPath[numberPath.length - 1]] = SENTINELS.number;
  }
  const text = copyEscape(JSON.stringify(record));
  const found = (['id', 'requested_at', 'number'] as const)
    .map((slot) => ({ slot, at: text.indexOf(String(SENTINELS[slot])), length: String(SENTINELS[slot]).length }))
    .filter((f) => f.at >= 0)
    .sort((a, b) => a.at - b.at);
  const pieces: string[] = [];
  let from = 0;
  for (const f of found) {
    pieces.push(text.slice(from, f.at));
    from = f.at + f.length;
  }
  pieces.push(text.slice(from));
  return { pieces, slots: found.map((f) => f.slot) };
}

/** The record text of one seeded row. */
export function fillTemplate(t: RecordTemplate, values: { id: string; requested_at: string; number: number }): string {
  let out = t.pieces[0];
  for (let i = 0; i < t.slots.length; i++) out += String(values[t.slots[i]]) + t.pieces[i + 1];
  return out;
}

/** A value as COPY's text format wants it: backslash, tab, newline and carriage return escaped. */
export function copyEscape(text: string): string {
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** The q-quantile (0..1) of the values, nearest rank; NaN when there are none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** One row of the printed report: what was measured, and its figures in print. */
export interface ReportRow {
  measure: string;
  figures: string;
}

/** Rounds for print: 3 significant digits below 100, whole numbers with thousands separators above. */
export function num(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 100) return Math.round(x).toLocaleString('en-US');
  return String(Number(x.toPrecision(3)));
}

/** The report as a Markdown table (what docs/benchmarks.md shows). */
export function reportTable(rows: readonly ReportRow[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return ['| Measure | Figures |', '|---|---|', ...rows.map((r) => `| ${cell(r.measure)} | ${cell(r.figures)} |`)].join('\n');
}

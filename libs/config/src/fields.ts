import type { FieldSpec } from './load-config';

interface Options<T> {
  default?: T;
  optional?: boolean;
  secret?: boolean;
  doc?: string;
}

/** A plain string; `pattern` (when given) must match the whole value. */
export function str(opts: Options<string> & { pattern?: RegExp } = {}): FieldSpec<string> {
  return {
    ...opts,
    parse(raw) {
      if (opts.pattern && !opts.pattern.test(raw)) throw new Error(`must match ${opts.pattern}`);
      return raw;
    },
  };
}

export function int(opts: Options<number> & { min?: number; max?: number } = {}): FieldSpec<number> {
  return {
    ...opts,
    parse(raw) {
      if (!/^-?\d+$/.test(raw.trim())) throw new Error('must be an integer');
      const n = Number(raw);
      if (opts.min !== undefined && n < opts.min) throw new Error(`must be at least ${opts.min}`);
      if (opts.max !== undefined && n > opts.max) throw new Error(`must be at most ${opts.max}`);
      return n;
    },
  };
}

export function bool(opts: Options<boolean> = {}): FieldSpec<boolean> {
  return {
    ...opts,
    parse(raw) {
      const v = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
      throw new Error('must be true or false');
    },
  };
}

export function url(opts: Options<string> & { protocols?: string[] } = {}): FieldSpec<string> {
  return {
    ...opts,
    parse(raw) {
      let parsed: URL;
      try {
        parsed = new URL(raw);
      } catch {
        throw new Error('must be a URL');
      }
      if (opts.protocols && !opts.protocols.includes(parsed.protocol.replace(/:$/, ''))) {
        throw new Error(`must use one of ${opts.protocols.join(', ')}`);
      }
      return raw;
    },
  };
}

export function oneOf<T extends string>(values: readonly T[], opts: Options<T> = {}): FieldSpec<T> {
  return {
    ...opts,
    parse(raw) {
      if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(', ')}`);
      return raw as T;
    },
  };
}

import { ConfigError, loadConfig } from './index';
import { duration, durationMs, formatDuration } from './duration';

describe('durationMs', () => {
  it('reads an integer and a unit', () => {
    expect(durationMs('90s')).toBe(90_000);
    expect(durationMs('2m')).toBe(120_000);
    expect(durationMs('12h')).toBe(43_200_000);
    expect(durationMs('90d')).toBe(90 * 86_400_000);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '0d', '1', 'd', '1.5h', '-1d', ' 1d', '1D', '1w', '01d', '1ms', 1, null, undefined]) {
      expect(durationMs(bad)).toBeNull();
    }
  });
});

describe('formatDuration', () => {
  it('writes the largest whole unit', () => {
    expect(formatDuration(86_400_000)).toBe('1d');
    expect(formatDuration(3_600_000)).toBe('1h');
    expect(formatDuration(90_000)).toBe('90s');
    expect(formatDuration(120_000)).toBe('2m');
  });
});

describe('duration() configuration field', () => {
  const schema = { D: duration({ default: '1d', min: '1m', max: '31d' }) };

  it('defaults, and parses within the bounds (both bounds included)', () => {
    expect(loadConfig(schema, {}).D).toBe(86_400_000);
    expect(loadConfig(schema, { D: '1m' }).D).toBe(60_000);
    expect(loadConfig(schema, { D: '31d' }).D).toBe(31 * 86_400_000);
  });

  it('refuses a value outside the bounds or malformed, naming the variable', () => {
    expect(() => loadConfig(schema, { D: '59s' })).toThrow(/D must be at least 1m/);
    expect(() => loadConfig(schema, { D: '32d' })).toThrow(/D must be at most 31d/);
    expect(() => loadConfig(schema, { D: 'soon' })).toThrow(ConfigError);
  });
});

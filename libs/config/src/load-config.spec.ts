import { loadConfig, ConfigError } from './load-config';
import { bool, int, oneOf, str, url } from './fields';

describe(loadConfig.name, () => {
  const schema = {
    PORT: int({ default: 3001, min: 1, max: 65535 }),
    HOST: str({ default: '127.0.0.1' }),
    REDIS_URL: url({ protocols: ['redis', 'rediss'] }),
    DEBUG: bool({ default: false }),
    MODE: oneOf(['a', 'b'] as const, { optional: true }),
    TOKEN: str({ secret: true, pattern: /^[a-z]{8,}$/ }),
  };

  it('parses values and applies defaults', () => {
    const sut = loadConfig(schema, { REDIS_URL: 'redis://127.0.0.1:6379', TOKEN: 'abcdefgh', DEBUG: 'true' });
    expect(sut).toEqual({
      PORT: 3001,
      HOST: '127.0.0.1',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DEBUG: true,
      MODE: undefined,
      TOKEN: 'abcdefgh',
    });
  });

  it('names every bad variable and never echoes a secret', () => {
    let caught: ConfigError | undefined;
    try {
      loadConfig(schema, { PORT: 'eighty', REDIS_URL: 'http://x', TOKEN: 'SECRET-VALUE', MODE: 'c' });
    } catch (err) {
      caught = err as ConfigError;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const text = caught!.message;
    expect(text).toContain('PORT must be an integer');
    expect(text).toContain('REDIS_URL must use one of redis, rediss');
    expect(text).toContain('MODE must be one of a, b');
    expect(text).toContain('TOKEN must match');
    expect(text).not.toContain('SECRET-VALUE');
  });

  it('reports a missing required variable', () => {
    expect(() => loadConfig({ X: str() }, {})).toThrow('X is required');
  });
});

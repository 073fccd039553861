import { loadConfig, base64Key32, commonSpecs, str, list, ConfigError, isDevelopment } from './index';

describe('loadConfig', () => {
  it('applies defaults and parses values', () => {
    const config = loadConfig('ticketing', { ...commonSpecs('ticketing', 3002), TOKENS: list({ default: [] }) }, { NODE_ENV: 'test', TOKENS: 'a, b,,c' });
    expect(config.PORT).toBe(3002);
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/ticketing');
    expect(config.TOKENS).toEqual(['a', 'b', 'c']);
  });

  it('names every bad or missing variable in one line', () => {
    const run = () =>
      loadConfig('auth', { ...commonSpecs('auth', 3003), SOCIAL_CONSUMER_KEY: str(), CREDENTIALS_KEY: base64Key32() }, { PORT: 'eighty', CREDENTIALS_KEY: 'short' });
    expect(run).toThrow(ConfigError);
    try {
      run();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^auth: invalid configuration: /);
      expect(message).toContain("PORT must be a port number (0-65535), got \"eighty\"");
      expect(message).toContain('SOCIAL_CONSUMER_KEY is missing');
      expect(message).toContain('CREDENTIALS_KEY must be 32 random bytes in base64');
    }
  });

  it('accepts a real 32-byte base64 key', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig('x', { K: base64Key32() }, { K: key }).K).toBe(key);
  });
});

describe('development defaults', () => {
  const specs = { ...commonSpecs('auth', 3003), SECRET: str({ devDefault: 'public-dev-secret' }) };

  it.each(['development', 'test'])('apply when NODE_ENV is exactly %s', (NODE_ENV) => {
    expect(isDevelopment({ NODE_ENV })).toBe(true);
    const config = loadConfig('auth', specs, { NODE_ENV });
    expect(config.SECRET).toBe('public-dev-secret');
    expect(config.AMQP_URL).toBe('amqp://guest:guest@127.0.0.1:5672');
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/auth');
  });

  it.each([['production'], ['staging'], ['prod'], ['Production'], ['Development'], [''], [undefined]])('never apply when NODE_ENV is %p: every secret and address is required', (NODE_ENV) => {
    const env = NODE_ENV === undefined ? {} : { NODE_ENV };
    expect(isDevelopment(env)).toBe(false);
    expect(() => loadConfig('auth', specs, env)).toThrow(ConfigError);
    expect(() => loadConfig('auth', specs, env)).toThrow(/AMQP_URL is missing; DATABASE_URL is missing; SECRET is missing \(development defaults apply only with NODE_ENV=development or test/);
  });

  it('outside development, takes every value given', () => {
    const config = loadConfig('auth', specs, { NODE_ENV: 'staging', SECRET: 's3cret', AMQP_URL: 'amqp://u:p@mq:5672', DATABASE_URL: 'postgres://db/auth' });
    expect(config).toMatchObject({ SECRET: 's3cret', AMQP_URL: 'amqp://u:p@mq:5672', DATABASE_URL: 'postgres://db/auth', PORT: 3003 });
  });
});

describe('broker and database addresses', () => {
  const specs = commonSpecs('ticketing', 3002);
  const env = (given: Record<string, string>) => ({ NODE_ENV: 'staging', ...given });

  it('take the nodes of a cluster: several broker URLs, several database servers', () => {
    const config = loadConfig('ticketing', specs, env({
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:5681, amqp://guest:guest@127.0.0.1:5682,amqp://guest:guest@127.0.0.1:5683',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5441,127.0.0.1:5442/ticketing?target_session_attrs=read-write',
    }));
    expect(config.AMQP_URL).toBe('amqp://guest:guest@127.0.0.1:5681,amqp://guest:guest@127.0.0.1:5682,amqp://guest:guest@127.0.0.1:5683');
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5441,127.0.0.1:5442/ticketing?target_session_attrs=read-write');
  });

  it('refuse an entry that is not an AMQP URL, without printing its credentials', () => {
    const run = () => loadConfig('ticketing', specs, env({ AMQP_URL: 'amqp://u:secret@mq1:5672,http://u:secret@mq2', DATABASE_URL: 'postgres://db/ticketing' }));
    expect(run).toThrow('AMQP_URL must be amqp:// URLs separated by commas; "http://…@mq2" is not one');
  });

  it('refuse a database URL with an empty or malformed server', () => {
    const run = () => loadConfig('ticketing', specs, env({ AMQP_URL: 'amqp://mq', DATABASE_URL: 'postgres://db1:5432,,db2/ticketing' }));
    expect(run).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
  });
});

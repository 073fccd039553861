import { loadConfig, base64Key32, commonSpecs, str, list, ConfigError } from './index';

describe('loadConfig', () => {
  it('applies defaults and parses values', () => {
    const config = loadConfig('ticketing', { ...commonSpecs('ticketing', 3002), TOKENS: list({ default: [] }) }, { TOKENS: 'a, b,,c' });
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

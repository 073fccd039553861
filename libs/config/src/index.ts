import { cleanEnv, makeValidator, str, port, num, url, bool, EnvError, EnvMissingError } from 'envalid';

export { str, port, num, url, bool, makeValidator };

/** A 32-byte key given as base64 (as `openssl rand -base64 32` prints it). */
export const base64Key32 = makeValidator<string>((input) => {
  const bytes = Buffer.from(input, 'base64');
  if (bytes.length !== 32 || bytes.toString('base64') !== input.trim()) {
    throw new EnvError('must be 32 random bytes in base64 (e.g. the output of `openssl rand -base64 32`)');
  }
  return input.trim();
});

/** A TCP port; 0 lets the system pick a free one (tests do). */
export const listenPort = makeValidator<number>((input) => {
  const value = Number(input);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new EnvError(`must be a port number (0-65535), got "${input}"`);
  return value;
});

export const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'];

/** LOG_LEVEL, shared by every service and the simulators. */
export const logLevel = () => str({ default: 'info', choices: LOG_LEVELS });

/** A comma-separated list that must hold at least one entry (e.g. CRM_API_TOKENS). */
export const nonEmptyList = makeValidator<string[]>((input) => {
  const items = input
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new EnvError('must hold at least one value (comma-separated)');
  return items;
});

export const positiveNumber = makeValidator<number>((input) => {
  const value = Number(input);
  if (input.trim() === '' || !Number.isFinite(value) || value <= 0) throw new EnvError(`must be a positive number, got "${input}"`);
  return value;
});

/** A whole number of at least `min`. */
export const wholeNumber = (min: number) =>
  makeValidator<number>((input) => {
    const value = Number(input);
    if (!/^[0-9]+$/.test(input.trim()) || value < min) throw new EnvError(`must be a whole number of at least ${min}, got "${input}"`);
    return value;
  });

/**
 * Publicly known values that let the local stack run with no set-up. Services use them only
 * when NODE_ENV is `development` or `test`, and warn when they do.
 */
export const LOCAL_DEV = {
  crmToken: 'local-dev-token',
  credentialsKey: Buffer.alloc(32, 'local-dev-credentials-key').toString('base64'),
  /** The social app's credentials, shared by auth, the platform simulator and the local stack so their signatures agree. */
  consumerKey: 'local-dev-consumer-key',
  consumerSecret: 'local-dev-consumer-secret',
  /** The app's OAuth 2.0 client (PKCE user connections), shared the same way. */
  oauth2ClientId: 'local-dev-oauth2-client-id',
  oauth2ClientSecret: 'local-dev-oauth2-client-secret',
} as const;

/**
 * AMQP_URL: one broker URL, or several separated by commas (the nodes of a cluster: the
 * connection takes the first that answers and moves to the next when it loses its node).
 */
export const amqpUrls = makeValidator<string>((input) => {
  const urls = input
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (urls.length === 0) throw new EnvError('must name at least one broker (amqp://user:password@host:5672/vhost)');
  for (const given of urls) {
    if (!/^amqps?:\/\//.test(given) || !URL.canParse(given)) throw new EnvError(`must be amqp:// URLs separated by commas; "${given.replace(/\/\/[^@/]*@/, '//…@')}" is not one`);
  }
  return urls.join(',');
});

/**
 * DATABASE_URL: a postgres:// URL; as with libpq, it may name several servers
 * (`postgres://user@host1:5432,host2:5432/db?target_session_attrs=read-write`), of which
 * @crm/db connects to the one that takes writes.
 */
export const databaseUrl = makeValidator<string>((input) => {
  const parts = /^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)([^/?#]*)(.*)$/.exec(input.trim());
  const hosts = parts?.[2]?.split(',') ?? [];
  const valid = parts && hosts.every((host) => /^[^:,\s]+(:\d+)?$/.test(host)) && URL.canParse(`${parts[1]}${hosts[0]}${parts[3]}`);
  if (!valid) throw new EnvError('must be a postgres:// URL (postgres://user:password@host:5432/database; several servers as host1:5432,host2:5432)');
  return input.trim();
});

/** A comma-separated list, empty entries dropped. */
export const list = makeValidator<string[]>((input) =>
  input
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Specs = Parameters<typeof cleanEnv>[1];

/** The only NODE_ENV values under which development defaults (`devDefault`) apply. */
export const DEVELOPMENT_ENVIRONMENTS: readonly string[] = ['development', 'test'];

/**
 * True only when NODE_ENV is exactly `development` or `test`. Anything else (unset,
 * `staging`, `prod`, `Production`, ...) is treated as production: fail closed.
 */
export function isDevelopment(env: NodeJS.ProcessEnv = process.env): boolean {
  return DEVELOPMENT_ENVIRONMENTS.includes(env.NODE_ENV ?? '');
}

/** The specs without their development defaults, so each such variable becomes required. */
function withoutDevDefaults<S extends Specs>(specs: S): S {
  const strict = Object.entries(specs as Record<string, unknown>).map(([name, spec]) => {
    const { devDefault: _devDefault, ...rest } = spec as { devDefault?: unknown };
    return [name, rest];
  });
  return Object.fromEntries(strict) as S;
}

/**
 * Validates the environment against `specs`. Every problem is gathered into one line, so a
 * service that cannot start says exactly which variables to fix. Development defaults apply
 * only when NODE_ENV is `development` or `test` (see isDevelopment); envalid alone would use
 * them for any NODE_ENV other than `production`.
 */
export function loadConfig<S extends Specs>(service: string, specs: S, env: NodeJS.ProcessEnv = process.env) {
  const development = isDevelopment(env);
  return cleanEnv(env, development ? specs : withoutDevDefaults(specs), {
    reporter: ({ errors }) => {
      const entries = Object.entries(errors);
      if (entries.length === 0) return;
      const problems = entries.map(([name, error]) =>
        error instanceof EnvMissingError ? `${name} is missing` : `${name} ${(error as Error | undefined)?.message ?? 'is invalid'}`,
      );
      const missing = entries.some(([, error]) => error instanceof EnvMissingError);
      const hint = missing && !development ? ` (development defaults apply only with NODE_ENV=development or test; NODE_ENV is ${JSON.stringify(env.NODE_ENV ?? 'unset')})` : '';
      throw new ConfigError(`${service}: invalid configuration: ${problems.join('; ')}${hint}`);
    },
  });
}

/** Common settings of every service (docs/architecture.md, "Configuration"). The broker and database addresses have local defaults in development and test only. */
export function commonSpecs(service: string, defaultPort: number) {
  return {
    AMQP_URL: amqpUrls({ devDefault: 'amqp://guest:guest@127.0.0.1:5672' }),
    PORT: listenPort({ default: defaultPort }),
    LOG_LEVEL: logLevel(),
    SHUTDOWN_TIMEOUT_MS: num({ default: 10000 }),
    DATABASE_URL: databaseUrl({ devDefault: `postgres://postgres@127.0.0.1:5432/${service.replace(/-/g, '_')}` }),
    DATABASE_MIGRATION_URL: databaseUrl({ default: undefined, desc: "The role that owns the service's database and runs its migrations (`pnpm provision`); DATABASE_URL when unset." }),
    BROKER_TOPOLOGY: str({
      default: 'declare',
      choices: ['declare', 'verify'] as const,
      desc: 'declare: the service declares the topology at connect (needs configure rights); verify: it only checks that `pnpm provision` declared it.',
    }),
  };
}

/** Runs `main`, turning a configuration error into one clear line and exit code 78 (EX_CONFIG). */
export function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
  throw error;
}

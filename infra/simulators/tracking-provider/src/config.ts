import { ConfigError, listenPort, list, loadConfig, logLevel, url, wholeNumber } from '@crm/config';
import { registerSecret } from '@crm/logging';

export interface SimulatorConfig {
  PORT: number;
  /** Clients the provider knows at start and their API keys (more through the control API). */
  clients: Map<string, string>;
  /** Base of the tracking links in task records. */
  PUBLIC_URL: string;
  LOG_LEVEL: string;
  /** How often the running simulator pushes the task changes time made to the clients' webhooks. */
  SIM_PUSH_INTERVAL_MS: number;
}

/** The client and key the local stack uses out of the box (see the README's walkthrough). */
export const LOCAL_CLIENT = { clientId: 'demo', apiKey: 'local-dev-tracking-key' };

/** Loads the simulator's settings; throws ConfigError (one clear line) on a bad value. */
export function loadSimulatorConfig(env: NodeJS.ProcessEnv = process.env): SimulatorConfig {
  const loaded = loadConfig(
    'tracking-provider-simulator',
    {
      PORT: listenPort({ default: 3102 }),
      // `clientId:apiKey` pairs, comma-separated.
      SIM_CLIENTS: list({ default: [`${LOCAL_CLIENT.clientId}:${LOCAL_CLIENT.apiKey}`] }),
      PUBLIC_URL: url({ default: undefined }),
      LOG_LEVEL: logLevel(),
      SIM_PUSH_INTERVAL_MS: wholeNumber(100)({ default: 1_000 }),
    },
    env,
  );
  const clients = new Map<string, string>();
  for (const [index, pair] of loaded.SIM_CLIENTS.entries()) {
    const at = pair.indexOf(':');
    // The entry itself is not shown: it may hold a key.
    if (at < 1 || at === pair.length - 1) throw new ConfigError(`tracking-provider-simulator: invalid configuration: SIM_CLIENTS entry ${index + 1} must be clientId:apiKey`);
    const apiKey = pair.slice(at + 1);
    registerSecret(apiKey);
    clients.set(pair.slice(0, at), apiKey);
  }
  return {
    PORT: loaded.PORT,
    clients,
    PUBLIC_URL: (loaded.PUBLIC_URL ?? `http://127.0.0.1:${loaded.PORT}`).replace(/\/$/, ''),
    LOG_LEVEL: loaded.LOG_LEVEL,
    SIM_PUSH_INTERVAL_MS: loaded.SIM_PUSH_INTERVAL_MS,
  };
}

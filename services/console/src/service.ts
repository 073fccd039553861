import type { Server } from 'node:http';
import { join } from 'node:path';
import { ConfigError } from '@crm/config';
import { closeServer, createHttpApp, listen, portOf, readOpenApiDocument } from '@crm/http';
import { registerSecret, type Logger } from '@crm/logging';
import { Upstream, type UpstreamOptions } from './adapters/upstream';
import { secureCookies, usesLocalOnlySecrets, type ConsoleConfig } from './config';
import { agentRoutes, configurationRoutes, ticketRoutes, usageRoutes, type Upstreams } from './http/api-routes';
import { eventRoutes } from './http/events';
import { invalidRequestCode } from './http/errors';
import { launchRoutes } from './http/launch';
import { launchScope, requireSession, SessionSealer, sessionRoutes, type SessionSettings } from './http/session';
import { securityHeaders, webRoutes } from './http/web';

export interface RunningConsole {
  server: Server;
  port: number;
  url: string;
  stop: () => Promise<void>;
}

export const DEFAULT_WEB_DIR = join(__dirname, '..', 'dist', 'web');
const LOCAL_MODES = ['development', 'test'];

/** Local development values are accepted in NODE_ENV development and test only. */
function refuseLocalSecretsOutsideDev(config: ConsoleConfig, logger: Logger, nodeEnv: string | undefined): void {
  if (!usesLocalOnlySecrets(config)) return;
  if (!LOCAL_MODES.includes(nodeEnv ?? '')) {
    throw new ConfigError('console: invalid configuration: SESSION_SECRET, SERVICE_TOKEN and CRM_API_TOKENS must be set (local development values are accepted only with NODE_ENV development or test)');
  }
  logger.warn('using local development secrets; never do this in production');
}

export async function startConsole(config: ConsoleConfig, deps: { logger: Logger; host?: string; nodeEnv?: string }): Promise<RunningConsole> {
  const { logger } = deps;
  refuseLocalSecretsOutsideDev(config, logger, deps.nodeEnv ?? process.env.NODE_ENV);
  for (const secret of [config.SESSION_SECRET, config.SERVICE_TOKEN, ...config.CRM_API_TOKENS]) registerSecret(secret);
  const upstream = (name: UpstreamOptions['name'], baseUrl: string) => new Upstream({ name, baseUrl, timeoutMs: config.UPSTREAM_TIMEOUT_MS });
  const upstreams: Upstreams = { ticketing: upstream('ticketing', config.TICKETING_URL), auth: upstream('auth', config.AUTH_URL) };
  let publicUrl = config.PUBLIC_URL?.replace(/\/$/, '') ?? '';
  const session: SessionSettings = {
    secret: config.SESSION_SECRET,
    serviceToken: config.SERVICE_TOKEN,
    ttlSeconds: config.SESSION_TTL_SECONDS,
    secure: secureCookies(config, { NODE_ENV: deps.nodeEnv ?? process.env.NODE_ENV }),
    crossSiteFrames: config.FRAME_ANCESTORS.length > 0,
    clientSettings: { tileUrl: config.TILE_URL, tileAttribution: config.TILE_ATTRIBUTION, mapRefreshMs: config.MAP_REFRESH_MS, pollIntervalMs: config.POLL_INTERVAL_MS },
  };
  const sealer = new SessionSealer(session);
  const app = createHttpApp({
    logger,
    // Ready when ticketing answers: without it no screen works.
    readiness: { ticketing: () => upstreams.ticketing.alive() },
    openApi: { document: readOpenApiDocument('services/console/openapi.yaml'), invalidRequestCode },
    // An image for a DM, base64 in JSON: room for one over the platform's 5 MB, so that auth says so in words.
    largeBodies: [{ path: '/api/tickets/:id/media', limit: '12mb' }],
    routes: (app) => {
      // req.ip is the browser's address (sign-in failures are counted per address): behind a reverse proxy, as that proxy says.
      app.set('trust proxy', config.TRUST_PROXY);
      app.use(securityHeaders(config.FRAME_ANCESTORS, config.TILE_URL));
      sessionRoutes(app, sealer, upstreams);
      launchRoutes(app, sealer, upstreams.auth, { crmTokens: config.CRM_API_TOKENS, ttlSeconds: config.LAUNCH_TTL_SECONDS, sessionTtlSeconds: config.LAUNCH_SESSION_TTL_SECONDS, publicUrl: () => publicUrl });
      app.use('/api', requireSession(sealer), launchScope);
      configurationRoutes(app, upstreams, session);
      ticketRoutes(app, upstreams, session);
      agentRoutes(app, upstreams, session);
      usageRoutes(app, upstreams, session);
      eventRoutes(app, upstreams.ticketing, session, logger);
      webRoutes(app, config.WEB_DIR ?? DEFAULT_WEB_DIR);
    },
  });
  const server = await listen(app, config.PORT, deps.host);
  const port = portOf(server);
  publicUrl ||= `http://127.0.0.1:${port}`;
  logger.info('console listening', { port, ticketing: config.TICKETING_URL, auth: config.AUTH_URL });
  const stop = async () => {
    const closing = closeServer(server);
    // Live event streams never end on their own: close them after a moment's grace.
    setTimeout(() => server.closeAllConnections(), 1000).unref();
    await closing;
  };
  return { server, port, url: publicUrl, stop };
}

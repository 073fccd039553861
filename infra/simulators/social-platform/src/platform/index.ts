import express, { Router, type RequestHandler } from 'express';
import type { Logger } from '@crm/logging';
import type { SimulatorConfig } from '../config';
import { accountActivityRoutes } from './account-activity-routes';
import { actionRoutes } from './action-routes';
import { ActivityDispatcher } from './activity';
import { Billing } from './billing';
import { parseParameters } from './authn';
import type { PlatformContext } from './context';
import { platformControlRoutes } from './control-routes';
import { Errors, PlatformError, platformErrorHandler } from './errors';
import { exactJson } from './objects';
import { NonceLedger } from './oauth1';
import { oauthRoutes } from './oauth-routes';
import { oauth2Routes } from './oauth2-routes';
import { v2ReadRoutes } from './v2-read-routes';
import { v2Routes } from './v2-routes';
import { mediaBodyParsers, mediaRoutes } from './media-routes';
import { RequestLog } from './request-log';
import { searchRoutes } from './search-routes';
import { PlatformState } from './state';
import { XaaHub } from './xaa-hub';
import { xaaControlRoutes } from './xaa-control-routes';
import { v2ErrorHandler, xaaRoutes } from './xaa-routes';

const API_PATHS = ['/oauth', '/oauth2', '/1.1', '/2', '/i/oauth2'];

/** Every JSON answer of the platform writes its 64-bit ids exactly (see jsonInteger). */
const exactIds: RequestHandler = (_req, res, next) => {
  res.json = (body: unknown) => res.type('json').send(exactJson(body));
  next();
};

/**
 * The simulated platform API: OAuth 1.0a user authorisation, the app token, the Account
 * Activity setup routes and the v1.1 action routes, with every signature checked; plus
 * control routes under /control/platform.
 */
export function platformRoutes({ config, logger }: { config: SimulatorConfig; logger: Logger }): Router {
  const state = new PlatformState();
  const xaa = new XaaHub(config.SOCIAL_CONSUMER_SECRET, logger);
  const ctx: PlatformContext = {
    config,
    logger,
    state,
    xaa,
    activity: new ActivityDispatcher(state, config.SOCIAL_CONSUMER_SECRET, logger, xaa),
    nonces: new NonceLedger(config.OAUTH_TIMESTAMP_WINDOW_SECONDS),
    requests: new RequestLog(),
    billing: new Billing(config.CREDIT_BALANCE),
  };
  const router = Router();
  router.use(exactIds);
  router.use(API_PATHS, ctx.requests.middleware(), ctx.billing.middleware(), ...parseParameters());
  // v2 routes take JSON bodies; media uploads larger ones, and multipart.
  mediaBodyParsers(router);
  router.use('/2', express.json({ limit: '100kb' }));
  oauthRoutes(router, ctx);
  accountActivityRoutes(router, ctx);
  actionRoutes(router, ctx);
  searchRoutes(router, ctx);
  oauth2Routes(router, ctx);
  v2Routes(router, ctx);
  mediaRoutes(router, ctx);
  v2ReadRoutes(router, ctx);
  xaaRoutes(router, ctx, xaa);
  platformControlRoutes(router, ctx);
  xaaControlRoutes(router, ctx);
  router.use('/1.1', () => {
    throw Errors.notFound();
  });
  router.use('/2', () => {
    throw new PlatformError(404, 0, 'The requested resource does not exist.');
  });
  router.use('/2', v2ErrorHandler);
  router.use(
    API_PATHS,
    platformErrorHandler((error) => logger.error('platform route failed', { err: error })),
  );
  return router;
}

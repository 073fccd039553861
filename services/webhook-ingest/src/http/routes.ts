import type { Express, Request } from 'express';
import getRawBody from 'raw-body';
import { Refusal, type HotRoute } from '@crm/http';
import type { Logger } from '@crm/logging';
import type { Publisher } from '@crm/messaging';
import { crcResponse, isPlausibleCrcToken, SIGNATURE_HEADER, verifySignature } from '@crm/webhook-signature';
import { UnknownEnvironment, type WebhookKey, type WebhookKeys } from '../adapters/webhook-keys';
import { domainErrors, invalidSignature, translateError } from './errors';
import { publishActivity } from '../adapters/activity-publisher';
import { ENV_NAME_PATTERN, inspectDelivery, inspectXaaDelivery, type InspectedDelivery, type PlatformNotice } from '../domain/delivery';

export interface WebhookRouteDeps {
  keys: WebhookKeys;
  publisher: Publisher;
  logger: Logger;
  bodyLimit: string;
  publishTimeoutMs: number;
}

/** The environment's key; UnknownEnvironment or KeyUnavailable (answered by ./errors) when there is none to use. */
async function keyFor(keys: WebhookKeys, envName: string): Promise<WebhookKey> {
  if (!ENV_NAME_PATTERN.test(envName)) throw new UnknownEnvironment(`'${envName.slice(0, 64)}' is not an environment name`);
  return keys.get(envName);
}

/** Signed with the current secret, or with the previous one while a rotation's overlap lasts. */
function signedWith(key: WebhookKey, raw: Buffer, signature: string): boolean {
  const byCurrent = verifySignature(key.current, raw, signature);
  const byPrevious = key.previous !== undefined && verifySignature(key.previous, raw, signature);
  return byCurrent || byPrevious;
}

/** The signature covers the bytes on the wire, so a body is taken as sent: any content-encoding but identity is refused. */
function refuseEncodedBodies(contentEncoding: string | undefined): void {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') throw new Refusal('unsupported_media_type', 'unsupported_encoding', 'send the delivery uncompressed: only content-encoding identity is accepted');
}

/** A delivery (`POST /webhooks/:envName`, `POST /webhooks/:envName/xaa`): its route reads and checks the raw body itself. */
export const isDelivery = (req: Request): boolean => req.method === 'POST' && req.path.startsWith('/webhooks/');

/** The webhook paths of an environment: the Account Activity API's and the X Activity API's, each with its delivery shape. */
const WEBHOOKS: ReadonlyArray<{ path: string; inspect: (raw: Buffer) => InspectedDelivery | PlatformNotice }> = [
  { path: '/webhooks/:envName', inspect: inspectDelivery },
  { path: '/webhooks/:envName/xaa', inspect: inspectXaaDelivery },
];

const ACCEPTED = { accepted: true };

/**
 * The signed deliveries of one webhook path: a hot route (served ahead of Express). Raw bytes,
 * whatever the content type: the signature covers exactly what was sent. An unknown environment
 * answers exactly as a bad signature does: a stranger learns nothing from it.
 */
function deliveryRoute(deps: WebhookRouteDeps, path: string, inspect: (raw: Buffer) => InspectedDelivery | PlatformNotice): HotRoute {
  return {
    method: 'POST',
    path,
    handle: async (req, { envName = '' }) => {
      refuseEncodedBodies(req.headers['content-encoding']);
      const raw = await getRawBody(req, { limit: deps.bodyLimit, length: req.headers['content-length'] });
      const signature = req.headers[SIGNATURE_HEADER];
      if (typeof signature !== 'string' || !signature) throw new Refusal('unauthorized', 'missing_signature', `the ${SIGNATURE_HEADER} header is required`);
      const key = deps.keys.knownKey(envName) ?? (await keyFor(deps.keys, envName));
      if (!signedWith(key, raw, signature)) throw invalidSignature();
      const delivery = inspect(raw);
      if (!delivery.ok) throw new Refusal('invalid', delivery.code, delivery.message);
      if (delivery.ok === 'notice') {
        deps.logger.info('platform notice', { envName, eventType: delivery.eventType, payload: delivery.payload });
        return { status: 200, json: ACCEPTED };
      }
      // Not confirmed by the broker (PublishError): 503, so the platform delivers again.
      await publishActivity(deps.publisher, envName, delivery, deps.publishTimeoutMs);
      // Accepted deliveries are counted by the metrics; their access log line and what they carried are for debugging.
      if (deps.logger.isDebugEnabled()) deps.logger.debug('delivery accepted', { kind: delivery.kind, forUserId: delivery.forUserId, events: delivery.eventCount, sha256: delivery.bodySha256 });
      return { status: 200, json: ACCEPTED };
    },
    translateError: (error, { envName = '' }) => translateError(error, { envName, delivery: true }, deps.logger),
    successLogLevel: 'debug',
  };
}

/** The deliveries of every webhook path, as hot routes. */
export function deliveryRoutes(deps: WebhookRouteDeps): HotRoute[] {
  return WEBHOOKS.map(({ path, inspect }) => deliveryRoute(deps, path, inspect));
}

/**
 * The webhooks' CRC answers, and the answers to their errors (deliveries' too): the Account
 * Activity API's at `/webhooks/:envName`, the X Activity API's at `/webhooks/:envName/xaa`. Both
 * answer the CRC and verify signatures the same way, with the same key.
 */
export function webhookRoutes(app: Express, deps: WebhookRouteDeps): void {
  for (const { path } of WEBHOOKS) {
    app.get(path, async (req, res) => {
      const token = req.query.crc_token;
      // The OpenAPI document refuses such tokens first; signing one must never depend on it.
      if (!isPlausibleCrcToken(token)) throw new Refusal('invalid', 'invalid_crc_token', 'crc_token must be 16 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -');
      const key = await keyFor(deps.keys, String(req.params.envName));
      res.set('cache-control', 'no-store').json(crcResponse(key.current, token));
    });
    app.use(path, domainErrors(deps.logger));
  }
}

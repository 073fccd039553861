import express, { type Express, type Request, type RequestHandler } from 'express';
import { HttpError } from '@crm/http';
import type { Logger } from '@crm/logging';
import type { Publisher } from '@crm/messaging';
import { crcResponse, isPlausibleCrcToken, SIGNATURE_HEADER, verifySignature } from '@crm/webhook-signature';
import { UnknownEnvironment, type WebhookKey, type WebhookKeys } from '../adapters/webhook-keys';
import { domainErrors, invalidSignature } from './errors';
import { publishActivity } from '../adapters/activity-publisher';
import { ENV_NAME_PATTERN, inspectDelivery, inspectXaaDelivery, type InspectedDelivery } from '../domain/delivery';

export interface WebhookRouteDeps {
  keys: WebhookKeys;
  publisher: Publisher;
  logger: Logger;
  bodyLimit: string;
  publishTimeoutMs: number;
}

/** The environment's key; UnknownEnvironment or KeyUnavailable (answered by ./errors) when there is none to use. */
async function keyFor(keys: WebhookKeys, req: Request): Promise<WebhookKey> {
  const envName = String(req.params.envName);
  if (!ENV_NAME_PATTERN.test(envName)) throw new UnknownEnvironment(`'${envName.slice(0, 64)}' is not an environment name`);
  return keys.get(envName);
}

/** Signed with the current secret, or with the previous one while a rotation's overlap lasts. */
function signedWith(key: WebhookKey, raw: Buffer, signature: string): boolean {
  const byCurrent = verifySignature(key.current, raw, signature);
  const byPrevious = key.previous !== undefined && verifySignature(key.previous, raw, signature);
  return byCurrent || byPrevious;
}

/**
 * The signature covers the bytes on the wire. A compressed body would be inflated by the
 * body parser and checked inflated, so any content-encoding but identity is refused.
 */
const identityEncodingOnly: RequestHandler = (req, _res, next) => {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') throw new HttpError(415, 'unsupported_encoding', 'send the delivery uncompressed: only content-encoding identity is accepted');
  next();
};

/** A delivery (`POST /webhooks/:envName`, `POST /webhooks/:envName/xaa`): its route reads and checks the raw body itself. */
export const isDelivery = (req: Request): boolean => req.method === 'POST' && req.path.startsWith('/webhooks/');

/**
 * The webhooks of an environment: the Account Activity API's at `/webhooks/:envName`, the X
 * Activity API's at `/webhooks/:envName/xaa`. Both answer the CRC and verify signatures the same
 * way, with the same key; each takes its own delivery shape.
 */
export function webhookRoutes(app: Express, deps: WebhookRouteDeps): void {
  webhookRoute(app, deps, '/webhooks/:envName', inspectDelivery);
  webhookRoute(app, deps, '/webhooks/:envName/xaa', inspectXaaDelivery);
}

function webhookRoute(app: Express, deps: WebhookRouteDeps, path: string, inspect: (raw: Buffer) => InspectedDelivery): void {
  app.get(path, async (req, res) => {
    const token = req.query.crc_token;
    // The OpenAPI document refuses such tokens first; signing one must never depend on it.
    if (!isPlausibleCrcToken(token)) throw new HttpError(400, 'invalid_crc_token', 'crc_token must be 16 to 128 characters of A-Z, a-z, 0-9, +, /, =, _ or -');
    const key = await keyFor(deps.keys, req);
    res.set('cache-control', 'no-store').json(crcResponse(key.current, token));
  });

  // Raw bytes, whatever the content type: the signature covers exactly what was sent.
  // An unknown environment answers exactly as a bad signature does: a stranger learns nothing from it.
  app.post(path, identityEncodingOnly, express.raw({ type: () => true, limit: deps.bodyLimit }), async (req, res) => {
    const signature = req.get(SIGNATURE_HEADER);
    if (!signature) throw new HttpError(401, 'missing_signature', `the ${SIGNATURE_HEADER} header is required`);
    const key = await keyFor(deps.keys, req);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!signedWith(key, raw, signature)) throw invalidSignature();

    const delivery = inspect(raw);
    if (!delivery.ok) throw new HttpError(400, delivery.code, delivery.message);
    // Not confirmed by the broker (PublishError): 503, so the platform delivers again.
    await publishActivity(deps.publisher, String(req.params.envName), delivery, deps.publishTimeoutMs);
    // The access log already has the request at info; what it carried is for debugging.
    deps.logger.debug('delivery accepted', { kind: delivery.kind, forUserId: delivery.forUserId, events: delivery.eventCount, sha256: delivery.bodySha256 });
    res.status(200).json({ accepted: true });
  });

  app.use(path, domainErrors(deps.logger));
}

import { defineContract } from './envelope';

/**
 * Account events auth publishes on `account.events` (topic): the routing key of each type.
 * They carry what ticketing mirrors into the partner configuration: the app's consumer key
 * and the access token masked (`abcd…wxyz`), never a token or secret in full.
 */
export const AuthAccountEventKeys = {
  connected: 'account.connected',
  disconnected: 'account.disconnected',
  needsReconnect: 'account.needs-reconnect',
  webhookInvalid: 'webhook.invalid',
} as const;

const accountId = { type: 'string', pattern: '^[0-9]{1,20}$' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;
const maskedToken = { type: 'string', minLength: 1, maxLength: 20 } as const;

/** What every account event says about the account and its (masked) credentials. */
export interface AccountCredentialsView {
  accountId: string;
  screenName: string;
  envName: string;
  /** The app's consumer key (an identifier, not a secret). */
  consumerKey: string;
  /** The account's access token, masked. */
  accessTokenMasked: string;
}

const accountView = {
  accountId,
  screenName: { type: 'string', minLength: 1, maxLength: 50 },
  envName: { type: 'string', minLength: 1, maxLength: 100 },
  consumerKey: { type: 'string', minLength: 1, maxLength: 200 },
  accessTokenMasked: maskedToken,
} as const;
const accountViewRequired = ['accountId', 'screenName', 'envName', 'consumerKey', 'accessTokenMasked'];

export interface AccountConnectedPayload extends AccountCredentialsView {
  name: string | null;
  /** `oauth`: through the three-legged flow; `import`: an existing token pair was imported. */
  via: 'oauth' | 'import';
  connectedAt: string;
}

export const AccountConnected = defineContract<AccountConnectedPayload>('account.connected.v1', {
  type: 'object',
  required: [...accountViewRequired, 'name', 'via', 'connectedAt'],
  additionalProperties: false,
  properties: { ...accountView, name: { type: ['string', 'null'], maxLength: 100 }, via: { type: 'string', enum: ['oauth', 'import'] }, connectedAt: timestamp },
});

export interface AccountDisconnectedPayload extends AccountCredentialsView {
  /** `removed`: the CRM deleted the account in auth (unsubscribed, credentials forgotten). */
  reason: 'removed';
  disconnectedAt: string;
}

export const AccountDisconnected = defineContract<AccountDisconnectedPayload>('account.disconnected.v1', {
  type: 'object',
  required: [...accountViewRequired, 'reason', 'disconnectedAt'],
  additionalProperties: false,
  properties: { ...accountView, reason: { type: 'string', enum: ['removed'] }, disconnectedAt: timestamp },
});

export interface AccountNeedsReconnectPayload extends AccountCredentialsView {
  /** What the platform answered (e.g. code 89, "Invalid or expired token."). */
  reason: { platformCode: number | null; message: string };
  detectedAt: string;
}

export const AccountNeedsReconnect = defineContract<AccountNeedsReconnectPayload>('account.needs-reconnect.v1', {
  type: 'object',
  required: [...accountViewRequired, 'reason', 'detectedAt'],
  additionalProperties: false,
  properties: {
    ...accountView,
    reason: {
      type: 'object',
      required: ['platformCode', 'message'],
      additionalProperties: false,
      properties: { platformCode: { type: ['integer', 'null'] }, message: { type: 'string', maxLength: 1000 } },
    },
    detectedAt: timestamp,
  },
});

export interface WebhookInvalidPayload {
  envName: string;
  webhookId: string;
  url: string;
  /** Why the CRC could not be made to pass again. */
  reason: string;
  checkedAt: string;
}

export const WebhookInvalid = defineContract<WebhookInvalidPayload>('webhook.invalid.v1', {
  type: 'object',
  required: ['envName', 'webhookId', 'url', 'reason', 'checkedAt'],
  additionalProperties: false,
  properties: {
    envName: { type: 'string', minLength: 1, maxLength: 100 },
    webhookId: { type: 'string', minLength: 1, maxLength: 40 },
    url: { type: 'string', minLength: 1, maxLength: 2000 },
    reason: { type: 'string', maxLength: 2000 },
    checkedAt: timestamp,
  },
});

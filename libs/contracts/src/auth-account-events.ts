import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';
import { Nullable, StringEnum } from './schema';

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

const timestamp = Type.String({ format: 'date-time' });

/** What every account event says about the account and its (masked) credentials. */
const accountView = {
  accountId: Type.String({ pattern: '^[0-9]{1,20}$' }),
  screenName: Type.String({ minLength: 1, maxLength: 50 }),
  envName: Type.String({ minLength: 1, maxLength: 100 }),
  consumerKey: Type.String({ minLength: 1, maxLength: 200, description: "The app's consumer key (an identifier, not a secret)." }),
  accessTokenMasked: Type.String({ minLength: 1, maxLength: 20, description: "The account's access token, masked." }),
};

export const AccountConnectedPayloadSchema = Type.Object(
  {
    ...accountView,
    name: Nullable(Type.String({ maxLength: 100 })),
    via: StringEnum(['oauth', 'import'], { description: '`oauth`: through the three-legged flow; `import`: an existing token pair was imported.' }),
    connectedAt: timestamp,
  },
  { additionalProperties: false, description: 'An account was connected to auth.' },
);
export type AccountConnectedPayload = Static<typeof AccountConnectedPayloadSchema>;
export const AccountConnected = defineContract('account.connected.v1', AccountConnectedPayloadSchema);

export const AccountDisconnectedPayloadSchema = Type.Object(
  {
    ...accountView,
    reason: StringEnum(['removed'], { description: '`removed`: the CRM deleted the account in auth (unsubscribed, credentials forgotten).' }),
    disconnectedAt: timestamp,
  },
  { additionalProperties: false, description: 'An account was disconnected from auth.' },
);
export type AccountDisconnectedPayload = Static<typeof AccountDisconnectedPayloadSchema>;
export const AccountDisconnected = defineContract('account.disconnected.v1', AccountDisconnectedPayloadSchema);

export const AccountNeedsReconnectPayloadSchema = Type.Object(
  {
    ...accountView,
    reason: Type.Object(
      { platformCode: Nullable(Type.Integer()), message: Type.String({ maxLength: 1000 }) },
      { additionalProperties: false, description: 'What the platform answered (e.g. code 89, "Invalid or expired token.").' },
    ),
    detectedAt: timestamp,
  },
  { additionalProperties: false, description: "The platform refused the account's token: it must be connected again." },
);
export type AccountNeedsReconnectPayload = Static<typeof AccountNeedsReconnectPayloadSchema>;
export const AccountNeedsReconnect = defineContract('account.needs-reconnect.v1', AccountNeedsReconnectPayloadSchema);

/**
 * `account.scopes-outdated`: kept out of AuthAccountEventKeys, so ticketing's account-event
 * queue does not bind it (ticketing has nothing to mirror from it); for the CRM and the console.
 */
export const ACCOUNT_SCOPES_OUTDATED_KEY = 'account.scopes-outdated';

export const AccountScopesOutdatedPayloadSchema = Type.Object(
  {
    ...accountView,
    missingScopes: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { minItems: 1, description: 'The scopes auth asks for now that the account did not grant (e.g. like.read, media.write).' }),
    detectedAt: timestamp,
  },
  {
    additionalProperties: false,
    description: 'An OAuth 2.0 account was connected with an older scope set than auth asks for now: it keeps working, but what needs the missing scopes (XAA likes, media) does not until it is connected again. Announced once per connection.',
  },
);
export type AccountScopesOutdatedPayload = Static<typeof AccountScopesOutdatedPayloadSchema>;
export const AccountScopesOutdated = defineContract('account.scopes-outdated.v1', AccountScopesOutdatedPayloadSchema);

export const WebhookInvalidPayloadSchema = Type.Object(
  {
    envName: Type.String({ minLength: 1, maxLength: 100 }),
    webhookId: Type.String({ minLength: 1, maxLength: 40 }),
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    reason: Type.String({ maxLength: 2000, description: 'Why the CRC could not be made to pass again.' }),
    checkedAt: timestamp,
  },
  { additionalProperties: false, description: "An environment's webhook fails its CRC check and could not be made valid again." },
);
export type WebhookInvalidPayload = Static<typeof WebhookInvalidPayloadSchema>;
export const WebhookInvalid = defineContract('webhook.invalid.v1', WebhookInvalidPayloadSchema);

/**
 * The app's credit on the platform, on `account.events` (kept out of AuthAccountEventKeys:
 * ticketing mirrors nothing from them; for the CRM, the console and operators). Each is
 * announced once per episode, through auth's outbox.
 */
export const AppCreditEventKeys = {
  outOfCredit: 'app.out_of_credit',
  creditRestored: 'app.credit_restored',
} as const;

export const AppOutOfCreditPayloadSchema = Type.Object(
  {
    envName: Type.String({ minLength: 1, maxLength: 100 }),
    since: Type.String({ format: 'date-time', description: 'When the platform first answered 402 credits-depleted in this episode.' }),
    message: Type.String({ maxLength: 1000, description: 'What to do, for a person.' }),
  },
  {
    additionalProperties: false,
    description: "The platform refuses the app: its prepaid credits are spent (402 credits-depleted). auth holds every command, in order, and sends them once credit is back; reads answer 503 out_of_credit meanwhile.",
  },
);
export type AppOutOfCreditPayload = Static<typeof AppOutOfCreditPayloadSchema>;
export const AppOutOfCredit = defineContract('app.out-of-credit.v1', AppOutOfCreditPayloadSchema);

export const AppCreditRestoredPayloadSchema = Type.Object(
  {
    envName: Type.String({ minLength: 1, maxLength: 100 }),
    since: Type.String({ format: 'date-time', description: 'When the episode began.' }),
    restoredAt: timestamp,
    heldCommands: Type.Integer({ minimum: 0, description: 'Commands held during the episode that auth sends now, in the order they arrived.' }),
  },
  { additionalProperties: false, description: "The platform answers the app again (credit was added): auth sends the commands it held, in order, and serves reads again." },
);
export type AppCreditRestoredPayload = Static<typeof AppCreditRestoredPayloadSchema>;
export const AppCreditRestored = defineContract('app.credit-restored.v1', AppCreditRestoredPayloadSchema);

import { Type, type Static } from '@sinclair/typebox';
import { defineContract } from './envelope';
import { Nullable, StringEnum } from './schema';

/**
 * What an API credential may do. `admin` holds every other scope (and the CRM_API_TOKENS
 * bootstrap tokens are `admin` with no limits).
 */
export const SCOPES = ['tickets:read', 'tickets:write', 'accounts:manage', 'tracking:manage', 'sessions:issue', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export const CredentialGrantSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, description: "The credential's id (also the middle part of its token)." }),
    name: Type.String(),
    scopes: Type.Array(StringEnum(SCOPES)),
    accountIds: Nullable(Type.Array(Type.String(), { description: 'The accounts it may see and act on; null for every account.' })),
    trackingClientIds: Nullable(Type.Array(Type.String(), { description: 'The tracking clients it may see and manage; null for every client.' })),
    ticketIds: Type.Optional(
      Nullable(Type.Array(Type.String(), { description: 'The only tickets it may reach (a launch session); null or absent for no such limit. A ticket-limited grant reaches no account, list or tracking client directly.' })),
    ),
    sessionId: Type.Optional(Type.String({ minLength: 1, description: 'Set when the token is a session that auth issued (the console signing an agent in, or a launch link): the session, ended at sign-out or expiry.' })),
  },
  { additionalProperties: false, description: 'What auth answers for a valid API credential: who it is, its scopes and limits.' },
);
/** What auth answers for a valid API credential: who it is, its scopes and limits. */
export type CredentialGrant = Static<typeof CredentialGrantSchema>;

export const CredentialRevokedPayloadSchema = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false, description: 'A credential was revoked: caches of credential checks forget it at once.' },
);
/** Published by auth on `access.events` when a credential is revoked: caches of credential checks forget it at once. */
export type CredentialRevokedPayload = Static<typeof CredentialRevokedPayloadSchema>;
export const CredentialRevoked = defineContract('auth.credential.revoked.v1', CredentialRevokedPayloadSchema);

export const CredentialVerifyRequestPayloadSchema = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 300 }) },
  { additionalProperties: false, description: 'The grant of a presented API token; the result is a CredentialGrant, or null when the token is unknown or revoked.' },
);
/** RPC on `auth.rpc`: the grant of a presented API token; the result is a CredentialGrant, or null when the token is unknown or revoked. */
export type CredentialVerifyRequestPayload = Static<typeof CredentialVerifyRequestPayloadSchema>;
export const CredentialVerifyRequest = defineContract('auth.credential.verify.v1', CredentialVerifyRequestPayloadSchema);

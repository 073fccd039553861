import { defineContract } from './envelope';

/**
 * What an API credential may do. `admin` holds every other scope (and the CRM_API_TOKENS
 * bootstrap tokens are `admin` with no limits).
 */
export const SCOPES = ['tickets:read', 'tickets:write', 'accounts:manage', 'tracking:manage', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** What auth answers for a valid API credential: who it is, its scopes and limits. */
export interface CredentialGrant {
  /** The credential's id (also the middle part of its token). */
  id: string;
  name: string;
  scopes: Scope[];
  /** The accounts it may see and act on; null for every account. */
  accountIds: string[] | null;
  /** The tracking clients it may see and manage; null for every client. */
  trackingClientIds: string[] | null;
}

/** Published by auth on `access.events` when a credential is revoked: caches of credential checks forget it at once. */
export interface CredentialRevokedPayload {
  id: string;
}
export const CredentialRevoked = defineContract<CredentialRevokedPayload>('auth.credential.revoked.v1', {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
});

/** RPC on `auth.rpc`: the grant of a presented API token; the result is a CredentialGrant, or null when the token is unknown or revoked. */
export interface CredentialVerifyRequestPayload {
  token: string;
}
export const CredentialVerifyRequest = defineContract<CredentialVerifyRequestPayload>('auth.credential.verify.v1', {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 300 } },
});

export { authenticate, bootstrapIndex, perMinute, missingScope, principalOf, requireScope, whoAmI, type AuthenticateOptions, type CredentialVerifier } from './authenticate';
export { appendAudit, auditWrites, type AuditEntry } from './audit';
export { bootstrapPrincipal, isScope, Principal, sessionIssuerPrincipal } from './principal';
export { hashSecret, newApiToken, parseApiToken, type NewApiToken, type TokenKind } from './tokens';
export { cachedVerifier, rpcCredentialVerifier, type CachedVerifier } from './verifiers';
export { accessSpecs } from './config';
export { accessControl, type AccessControl, type AccessControlOptions } from './access-control';
export { listenForRevocations, type RevocationListener } from './revocations';

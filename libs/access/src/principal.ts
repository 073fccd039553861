import { SCOPES, type CredentialGrant, type Scope } from '@crm/contracts';

/**
 * Who made a request: a bootstrap token (CRM_API_TOKENS: admin, no limits) or an API
 * credential with its scopes and its optional account and tracking-client limits.
 */
export class Principal {
  private readonly accounts: ReadonlySet<string> | null;
  private readonly trackingClients: ReadonlySet<string> | null;

  constructor(readonly grant: CredentialGrant & { bootstrap?: boolean }) {
    this.accounts = grant.accountIds ? new Set(grant.accountIds) : null;
    this.trackingClients = grant.trackingClientIds ? new Set(grant.trackingClientIds) : null;
  }

  get id(): string {
    return this.grant.id;
  }

  get bootstrap(): boolean {
    return this.grant.bootstrap === true;
  }

  /** `admin` holds every scope. */
  has(scope: Scope): boolean {
    return this.grant.scopes.includes('admin') || this.grant.scopes.includes(scope);
  }

  allowsAccount(accountId: string): boolean {
    return this.accounts === null || this.accounts.has(accountId);
  }

  allowsTrackingClient(clientId: string): boolean {
    return this.trackingClients === null || this.trackingClients.has(clientId);
  }

  /** The accounts a list must be limited to; null when every account may be seen. */
  get accountIds(): string[] | null {
    return this.grant.accountIds;
  }

  get trackingClientIds(): string[] | null {
    return this.grant.trackingClientIds;
  }
}

/** The principal of a bootstrap token: `bootstrap-<n>` (its position in CRM_API_TOKENS), admin, no limits. */
export function bootstrapPrincipal(index: number): Principal {
  return new Principal({ id: `bootstrap-${index + 1}`, name: 'CRM_API_TOKENS bootstrap token', scopes: ['admin'], accountIds: null, trackingClientIds: null, bootstrap: true });
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

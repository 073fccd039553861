import type { Pool } from '@crm/db';
import { registerSecret } from '@crm/logging';
import { mask, type SecretBox } from '@crm/secrets';

/** A client as the API shows it: the key masked. */
export interface ClientView {
  clientId: string;
  enabled: boolean;
  apiKey: string;
  include: string[];
  /** Whether a push secret is set: the provider's signed pushes of this client's tasks are taken. */
  pushes: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What calling the provider for a client takes. */
export interface ClientCredentials {
  clientId: string;
  enabled: boolean;
  apiKey: string;
  include: string[];
}

export interface ClientSettings {
  enabled: boolean;
  /** Required for a new client; kept as it is when an existing client is updated without one. */
  apiKey?: string;
  include: string[];
  /** The secret the provider signs this client's task pushes with; kept as it is when omitted. */
  pushSecret?: string;
}

interface ClientRow {
  client_id: string;
  enabled: boolean;
  api_key_sealed: string;
  api_key_masked: string;
  include: string[];
  push_secret_sealed: string | null;
  created_at: Date;
  updated_at: Date;
  created?: boolean;
}

export class MissingApiKey extends Error {
  override name = 'MissingApiKey';
}

const view = (row: ClientRow): ClientView => ({
  clientId: row.client_id,
  enabled: row.enabled,
  apiKey: row.api_key_masked,
  include: row.include,
  pushes: row.push_secret_sealed !== null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** Per-client enablement and provider API keys, sealed at rest (bound to their client id). */
export class ClientsStore {
  private readonly openedKeys = new Map<string, string>();

  constructor(
    private readonly pool: Pool,
    private readonly box: SecretBox,
  ) {}

  private seal(clientId: string, apiKey: string): string {
    return this.box.seal(apiKey, `tracking-client:${clientId}`);
  }

  private sealPush(clientId: string, secret: string | undefined): string | null {
    if (secret === undefined) return null;
    registerSecret(secret);
    return this.box.seal(secret, `tracking-push:${clientId}`);
  }

  /** Creates or replaces a client's settings. */
  async save(clientId: string, settings: ClientSettings): Promise<{ client: ClientView; created: boolean }> {
    const pushSealed = this.sealPush(clientId, settings.pushSecret);
    if (settings.apiKey === undefined) {
      const { rows } = await this.pool.query<ClientRow>(
        'UPDATE tracking_clients SET enabled = $2, include = $3, push_secret_sealed = coalesce($4, push_secret_sealed), updated_at = now() WHERE client_id = $1 RETURNING *',
        [clientId, settings.enabled, settings.include, pushSealed],
      );
      if (!rows[0]) throw new MissingApiKey(`apiKey is required: client '${clientId}' is new`);
      return { client: view(rows[0]), created: false };
    }
    registerSecret(settings.apiKey);
    const { rows } = await this.pool.query<ClientRow>(
      `INSERT INTO tracking_clients (client_id, enabled, api_key_sealed, api_key_masked, include, push_secret_sealed)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (client_id) DO UPDATE
         SET enabled = EXCLUDED.enabled, api_key_sealed = EXCLUDED.api_key_sealed, api_key_masked = EXCLUDED.api_key_masked,
             include = EXCLUDED.include, push_secret_sealed = coalesce(EXCLUDED.push_secret_sealed, tracking_clients.push_secret_sealed), updated_at = now()
       RETURNING *, (xmax = 0) AS created`,
      [clientId, settings.enabled, this.seal(clientId, settings.apiKey), mask(settings.apiKey), settings.include, pushSealed],
    );
    const row = rows[0]!;
    return { client: view(row), created: Boolean(row.created) };
  }

  async find(clientId: string): Promise<ClientView | null> {
    const { rows } = await this.pool.query<ClientRow>('SELECT * FROM tracking_clients WHERE client_id = $1', [clientId]);
    return rows[0] ? view(rows[0]) : null;
  }

  /** The client's settings with its key opened, or null for an unknown client. */
  async credentials(clientId: string): Promise<ClientCredentials | null> {
    const { rows } = await this.pool.query<Pick<ClientRow, 'client_id' | 'enabled' | 'api_key_sealed' | 'include'>>(
      'SELECT client_id, enabled, api_key_sealed, include FROM tracking_clients WHERE client_id = $1',
      [clientId],
    );
    const row = rows[0];
    if (!row) return null;
    return { clientId: row.client_id, enabled: row.enabled, apiKey: this.opened(row.api_key_sealed, () => this.box.open(row.api_key_sealed, `tracking-client:${clientId}`)), include: row.include };
  }

  /** The secret that signs the client's task pushes; null for an unknown client or one without pushes. */
  async pushSecret(clientId: string): Promise<string | null> {
    const { rows } = await this.pool.query<Pick<ClientRow, 'push_secret_sealed'>>('SELECT push_secret_sealed FROM tracking_clients WHERE client_id = $1 AND enabled', [clientId]);
    const sealed = rows[0]?.push_secret_sealed;
    return sealed ? this.opened(sealed, () => this.box.open(sealed, `tracking-push:${clientId}`)) : null;
  }

  /**
   * The row is read on every lookup (so disabling a client takes effect at once on every
   * replica), but a sealed key is opened once: the same sealed value always holds the same key.
   */
  private opened(sealed: string, open: () => string): string {
    const known = this.openedKeys.get(sealed);
    if (known !== undefined) return known;
    const apiKey = open();
    registerSecret(apiKey);
    if (this.openedKeys.size >= 10_000) this.openedKeys.clear();
    this.openedKeys.set(sealed, apiKey);
    return apiKey;
  }
}

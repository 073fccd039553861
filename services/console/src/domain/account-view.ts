/** What the server tells the browser about accounts: the shape the console's own OpenAPI document gives (generated/console.ts), shared by both. */
import type { components } from '../../web/src/generated/console';

/** One connected account as the configuration page lists it. */
export type AccountView = components['schemas']['AccountView'];

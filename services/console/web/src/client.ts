/**
 * The typed clients of the APIs the web app calls: the services', through the console server's
 * /api relay, and the console server's own routes (session, merged accounts, the customer's
 * profile). Paths, parameters, bodies and answers come from each OpenAPI document
 * (generated/*.ts, made by `pnpm --filter @crm/console generate:api`; a test keeps them current).
 */
import createClient from 'openapi-fetch';
import { failureOf, pageLocation, viaConsole } from './api';
import type { components as AuthComponents, paths as AuthPaths } from './generated/auth';
import type { components as ConsoleComponents, paths as ConsolePaths } from './generated/console';
import type { components as TicketingComponents, paths as TicketingPaths } from './generated/ticketing';
import type { components as TrackingComponents } from './generated/tracking';

export type TicketingSchemas = TicketingComponents['schemas'];
export type AuthSchemas = AuthComponents['schemas'];
export type TrackingSchemas = TrackingComponents['schemas'];
export type ConsoleSchemas = ConsoleComponents['schemas'];

// The base is the page's own origin; viaConsole turns /v1/… into the relay's /api/….
const baseUrl = pageLocation.origin;

export const ticketing = createClient<TicketingPaths>({ baseUrl, fetch: viaConsole });
export const auth = createClient<AuthPaths>({ baseUrl, fetch: viaConsole });
/** The console server's own routes (`/api/session`, `/api/accounts`, …), which no service document describes. */
export const consoleApi = createClient<ConsolePaths>({ baseUrl, fetch: viaConsole });

/** The data of a successful call; a failed one throws its ApiError (with the service's message and fields). */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw failureOf(response, error ?? null);
  return data as T;
}

/** A write whose answer the page does not read: its failure throws the ApiError all the same. */
export async function done(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const { error, response } = await call;
  if (!response.ok) throw failureOf(response, error ?? null);
}

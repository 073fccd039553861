/**
 * The typed clients of the services the web app calls, through the console server's /api relay:
 * paths, parameters, bodies and answers come from each service's OpenAPI document
 * (generated/*.ts, made by `pnpm --filter @crm/console generate:api`; a test keeps them current).
 */
import createClient from 'openapi-fetch';
import { failureOf, pageLocation, viaConsole } from './api';
import type { components as AuthComponents, paths as AuthPaths } from './generated/auth';
import type { components as TicketingComponents, paths as TicketingPaths } from './generated/ticketing';
import type { components as TrackingComponents } from './generated/tracking';

export type TicketingSchemas = TicketingComponents['schemas'];
export type AuthSchemas = AuthComponents['schemas'];
export type TrackingSchemas = TrackingComponents['schemas'];

// The base is the page's own origin; viaConsole turns /v1/… into the relay's /api/….
const baseUrl = pageLocation.origin;

export const ticketing = createClient<TicketingPaths>({ baseUrl, fetch: viaConsole });
export const auth = createClient<AuthPaths>({ baseUrl, fetch: viaConsole });

/** The data of a successful call; a failed one throws its ApiError (with the service's message and fields). */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw failureOf(response, error ?? null);
  return data as T;
}

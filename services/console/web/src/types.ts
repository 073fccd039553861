/*
 * The services' shapes come from their OpenAPI documents (generated/*.ts, through client.ts).
 * The deprecated interfaces below are older hand-written copies that differ from the documents
 * (e.g. a contact may be null, a read receipt has `readAt`); code moves to the generated types.
 */
import type { TicketingSchemas } from './client';

export type Person = TicketingSchemas['Person'];
export type Activity = TicketingSchemas['Activity'];
export type OrderLink = TicketingSchemas['OrderLink'];
export type TicketStatus = TicketingSchemas['Status'];
export type Priority = TicketingSchemas['Priority'];
/** A ticket as `GET /v1/tickets` lists it. */
export type TicketSummary = TicketingSchemas['Ticket'];
/** A ticket with its timeline, as `GET /v1/tickets/:id` answers it. */
export type TicketDetail = TicketingSchemas['TicketDetail'];

export type { AccountView } from '../../src/domain/account-view';

/** @deprecated the generated `TicketingSchemas['TicketDetail']` is the service's shape; this older copy stays until its users move. */
export interface Ticket {
  id: string;
  accountId: string;
  status: string;
  channel: string;
  queue: string;
  folder: string;
  routingRule: string | null;
  subject: string;
  contact: Person;
  assignee?: string | null;
  team?: string | null;
  priority?: string | null;
  createdAt: string;
  lastActivityAt: string;
  updatedAt: string;
  sla: { firstResponseDueAt: string | null; resolutionDueAt: string | null; firstRespondedAt: string | null };
  order: OrderLink | null;
  mergedInto?: string | null;
  conversationState: {
    typing: { contactAt: string | null; accountAt: string | null };
    read: { contact: { at?: string | null } | null; account: { at?: string | null } | null };
  } | null;
  activities?: Activity[];
}

/** @deprecated the generated `TicketingSchemas['RoutingRule']` is the service's shape; this older copy stays until its users move. */
export interface RoutingRule {
  name: string;
  when?: { kinds?: string[]; keywords?: string[]; senders?: string[]; languages?: string[] };
  queue: string;
  folder: string;
}

/** @deprecated the generated `TicketingSchemas['PartnerConfig']` is the service's shape; this older copy stays until its users move. */
export interface PartnerConfig {
  pageId: string;
  pageName: string | null;
  consumerKey: string | null;
  accessToken: string | null;
  accountStatus: string | null;
  /** null: a number field the agent cleared (never sent: the form asks for a value). */
  sla: { firstResponseMinutes: number | null; resolutionMinutes: number | null; businessHours?: unknown };
  routing: { defaultQueue: string; defaultFolder: string; rules: RoutingRule[] };
  policy: Record<string, unknown>;
  searchQueries: (string | { query: string; lastRunAt?: string | null; lastError?: string | null })[];
  merge: { enabled: boolean; windowMinutes: number | null };
}

/** @deprecated the generated `TicketingSchemas['TrackingLiveView']` is the service's shape; this older copy stays until its users move. */
export interface LiveView {
  clientId: string;
  taskId: string;
  status: string;
  active: boolean;
  rider: { lat: number; lng: number; recordedAt: string; ageSeconds: number; stale: boolean; name?: string | null } | null;
  drop: { lat: number; lng: number; address?: string | null } | null;
  route: { distanceMeters: number; durationSeconds: number; geometry: { type: 'LineString'; coordinates: [number, number][] }; source: string } | null;
  eta: { at: string; approximate: boolean; source: string } | null;
  notice: { code: string; message: string } | null;
  freshness?: { stale?: boolean; staleReason?: string | null; ageSeconds?: number; fetchedAt?: string } | null;
}

export interface Person {
  screenName?: string | null;
  name?: string | null;
}

export interface Activity {
  id: string;
  kind: string;
  direction: 'inbound' | 'outbound' | 'event';
  text: string | null;
  occurredAt: string;
  deleted?: boolean;
  author?: Person | null;
  status: 'pending' | 'sent' | 'failed' | 'unknown' | null;
  failure: { code: string; message: string; platformCode: number | null } | null;
  /** Who made it (an agent's id, for what was done here); null for the platform's activity. */
  by?: string | null;
  /** Their name, as ticketing recorded it. */
  byName?: string | null;
}

export interface OrderLink {
  clientId: string;
  taskId: string;
  linkedAt: string;
  tracking: { available: boolean | null; reason: string; message: string | null; stale?: boolean } | null;
}

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
  conversationState: {
    typing: { contactAt: string | null; accountAt: string | null };
    read: { contact: { at?: string | null } | null; account: { at?: string | null } | null };
  } | null;
  activities?: Activity[];
}

export interface RoutingRule {
  name: string;
  when?: { kinds?: string[]; keywords?: string[]; senders?: string[]; languages?: string[] };
  queue: string;
  folder: string;
}

export interface PartnerConfig {
  pageId: string;
  pageName: string | null;
  consumerKey: string | null;
  accessToken: string | null;
  accountStatus: string | null;
  sla: { firstResponseMinutes: number; resolutionMinutes: number; businessHours?: unknown };
  routing: { defaultQueue: string; defaultFolder: string; rules: RoutingRule[] };
  policy: Record<string, unknown>;
  searchQueries: (string | { query: string; lastRunAt?: string | null; lastError?: string | null })[];
  merge: { enabled: boolean; windowMinutes: number };
}

export type { AccountView } from '../../src/domain/account-view';

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

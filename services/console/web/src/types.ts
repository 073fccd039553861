/*
 * Names of the shapes the web app reads, all generated from the OpenAPI documents (generated/*.ts,
 * through client.ts): the services' and the console server's own. Nothing here is written by hand.
 */
import type { ConsoleSchemas, TicketingSchemas } from './client';

export type Person = TicketingSchemas['Person'];
export type Activity = TicketingSchemas['Activity'];
export type OrderLink = TicketingSchemas['OrderLink'];
export type TicketStatus = TicketingSchemas['Status'];
export type Priority = TicketingSchemas['Priority'];
/** A ticket as `GET /v1/tickets` lists it. */
export type TicketSummary = TicketingSchemas['Ticket'];
/** A ticket with its timeline, as `GET /v1/tickets/:id` answers it. */
export type TicketDetail = TicketingSchemas['TicketDetail'];
export type RoutingRule = TicketingSchemas['RoutingRule'];
export type PartnerConfig = TicketingSchemas['PartnerConfig'];
/** The live map view of a ticket's order (`GET /v1/tickets/:id/order/live`). */
export type LiveView = TicketingSchemas['TrackingLiveView'];

/** The signed-in session, as the console server's `GET /api/session` answers it. */
export type SessionInfo = ConsoleSchemas['SessionInfo'];
export type Settings = ConsoleSchemas['Settings'];
/** One connected account, as the console server's `GET /api/accounts` lists it. */
export type AccountView = ConsoleSchemas['AccountView'];
/** The platform's profile of a customer (`GET /api/tickets/:id/customer`). */
export type PlatformUser = ConsoleSchemas['PlatformUser'];

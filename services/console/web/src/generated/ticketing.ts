/* Generated from services/ticketing/openapi.yaml by `pnpm --filter @crm/console generate:api`: do not edit. */

export interface paths {
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the process runs */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the broker is connected and the database reachable */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (docs/observability.md) */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document, rendered */
        get: operations["getDocsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the presented token is (any valid token; no scope needed)
         * @description For a front end signing an agent in with an API credential, to learn what it may do.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tickets, newest first, with cursor paging */
        get: operations["listTickets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * The same change on up to 100 tickets, all or nothing
         * @description Any refusal (a ticket missing, a move the workflow forbids for one of them) changes none; the 409 names the ticket and its status.
         */
        patch: operations["changeTickets"];
        trace?: never;
    };
    "/v1/ticket-counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many open or pending tickets each view of the agents' workspace holds
         * @description Counts open and pending tickets (merged, resolved and closed ones are in no view) of the accounts the caller may see, or of `accountId`: all of them, those assigned to the caller (`mine`), those nobody is assigned, those whose SLA is breached, and each queue and folder. The same views list with `GET /v1/tickets?status=open,pending` and `assignee=me`, `assignee=none`, `breached=true`, `queue` and `folder`.
         */
        get: operations["countTickets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        /**
         * One ticket with its timeline, oldest first
         * @description When the ticket is linked to an order whose tracking answer is older than `TRACKING_REFRESH_AFTER_MS`, tracking is asked again; the answer waits at most `TRACKING_READ_WAIT_MS` for it, else shows the last answer with `order.tracking.stale` true (the check goes on, so a later read has it).
         */
        get: operations["getTicket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Changes a ticket (status along the workflow, assignee, team, priority, queue, folder, tags)
         * @description Allowed moves: open → pending, resolved, closed; pending → open, resolved, closed; resolved → open, closed; closed and merged are final (merged is left by an unmerge). A forbidden move is 409 forbidden_transition naming the current status. Each change is a timeline entry (status_changed or ticket_updated, with data.changes, by the principal) and a ticket.updated event. Moving queue or folder stops routing from moving the ticket again.
         */
        patch: operations["changeTicket"];
        trace?: never;
    };
    "/v1/tickets/{id}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sends an agent's reply from the ticket
         * @description A DM to the contact on a DM ticket (`send_dm`), a public reply to the ticket's newest customer post that is not deleted on a public one (`reply`). The outbound activity is recorded as pending together with the command for auth (transactional outbox; the command id is the activity id), and becomes `sent` (with the platform's id), `failed` or `unknown` (with the reason in `failure`) when auth's result arrives. Nothing is stored or sent when the request is refused. A DM may carry an image: upload it to auth first (`POST /v1/accounts/{accountId}/media`, which answers its media id as `platformId`) and name it in `attachment`; the text is then optional. The activity lists it in `attachments` (`{type: photo, url: null, mediaId}`). A public reply takes no image (400).
         */
        post: operations["sendReply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}/order": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Links the ticket to an order (a tracking client and task) and asks tracking whether it can show it
         * @description Asks tracking first and waits for its answer (up to `TRACKING_RPC_TIMEOUT_MS`). When tracking says the client or the task does not exist, the link is refused (422 `order_client_unknown` or `order_task_unknown`, with a sentence an agent can act on) and nothing is stored. When the order exists but cannot be shown now (client turned off, provider down or slow), the link is kept with tracking's answer; without any answer it is kept unverified (`tracking.available` null); either way tracking is asked again when the ticket is read. Linking the same order again keeps the last answer. A tracking client the credential may not see (or any, for a session limited to tickets) is refused as an unknown client, without asking tracking.
         */
        put: operations["linkOrder"];
        post?: never;
        /** Unlinks the ticket from its order (nothing to do when it has none) */
        delete: operations["unlinkOrder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}/order/live": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        /**
         * The live map view of the ticket's order, asked of tracking
         * @description The body of tracking's `GET /v1/clients/{clientId}/tasks/{taskId}/live` for the linked order. 404 `order_not_linked` when the ticket has no order, or its tracking client is not one the credential may see (a session limited to tickets sees its tickets' orders); tracking's failures with its codes and statuses (404 `client_not_found`/`task_not_found`, 403 `client_disabled`, 422 `provider_rejected`, 502 `provider_auth_failed`, 503 `provider_unavailable`/`circuit_open`, 504 `provider_timeout`); 503 `tracking_unavailable` (Retry-After) when tracking does not answer within TRACKING_RPC_TIMEOUT_MS.
         */
        get: operations["getOrderLiveView"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}/presence": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Says the caller is on the ticket (viewing, typing) or has left it; every event stream that hears the ticket gets agent.presence
         * @description Nothing is stored: the event `agent.presence` {ticketId, accountId, actor, expiresAt, data: {agentId, name, state}} reaches the event streams of every replica (the NOTIFY channel of committed changes). It counts until expiresAt (30 s): a console says it again every 10 s while the agent stays, and `left` when it goes.
         */
        put: operations["announcePresence"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Adds an internal note (never sent to the platform), optionally with an evidence snapshot */
        post: operations["addNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merges tickets into this one
         * @description Each source's timeline (activities, notes, and so its contacts) moves to this ticket in time order; each source reads status merged, mergedInto this id. Later activity of a source's conversation lands here. A reply from here answers the newest customer DM or post on the timeline (a DM goes to that DM's sender). 409 merge_refused when the target or a source is merged already or of another account.
         */
        post: operations["mergeTickets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}/unmerge": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restores merged tickets
         * @description id a merged ticket: restores it from its target. id a target: restores the sourceIds given, else all its sources. Each source gets back what the merge moved and the status it had (resolved if its conversation has another active ticket meanwhile). 409 unmerge_refused once the target has sent a reply of its own since the merge; 409 not_merged when there is nothing to restore. Answers the target.
         */
        post: operations["unmergeTickets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tickets/{id}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acts on the account's behalf from the ticket (like, repost, follow, mute, block, and their undoing)
         * @description Like, unlike and repost act on postId, else the ticket's newest customer post; the others on the ticket's contact. Recorded as an internal `action` entry (by the principal, status pending) and sent to auth through the outbox; auth's result sets the entry's status (sent, failed, unknown) and failure.
         */
        post: operations["actFromTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live ticket changes as server-sent events
         * @description Only what the credential may read: its accounts' changes (with `accountId` one of them; another is 404 `account_not_found`); a session limited to tickets hears only its tickets' changes. The stream ends when its credential or session is revoked; a client that leaves more than EVENT_STREAM_BUFFER_BYTES unread is dropped. At most EVENT_STREAMS_PER_CREDENTIAL open streams per credential or session and EVENT_STREAMS_PER_PROCESS per process: beyond, 429 `too_many_streams` with Retry-After. One event per committed change: `event:` is the CRM event type (ticket.created, ticket.updated, ticket.activity, ticket.merged, ticket.unmerged, ...) or a conversation state (conversation.typing with expiresAt, conversation.typing_stopped a few seconds after the last typing, conversation.read); `id:` the event's id; `data:` JSON {id, type, ticketId, accountId, actor, occurredAt, ticket?, data?, expiresAt?}. A comment line comes first and every 15 s. Events of a moment the stream was not connected are not replayed: reload the list on reconnect.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The registered endpoints (without their secrets) */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Registers a CRM endpoint for the CRM events, signed the Standard Webhooks way
         * @description Every CRM event of the types given (all when empty) is POSTed as its envelope (the crm.events message) with webhook-id (the event id), webhook-timestamp and webhook-signature (v1, HMAC-SHA256 with the secret). A non-2xx answer or none within WEBHOOK_TIMEOUT_MS is tried again after each of WEBHOOK_RETRY_DELAYS_MS, then listed as a failure. Only public addresses are reached (docs/access.md, Outbound webhooks): a URL whose host is a loopback, private, link-local, unique-local, unspecified or other special-purpose address, in any notation, is refused with 400 invalid_webhook_endpoint unless an operator allowed its range (WEBHOOK_ALLOWED_CIDRS); a host name is accepted and the address it resolves to is checked when each delivery connects. The secret is in this answer only. 409 webhooks_not_configured when WEBHOOK_SECRETS_KEY is not set.
         */
        post: operations["registerWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        /** One endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Removes the endpoint and its deliveries */
        delete: operations["removeWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/failures": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        /** Events the endpoint never accepted (every attempt failed), oldest first */
        get: operations["listWebhookFailures"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends one event to the endpoint again, from the first attempt */
        post: operations["replayWebhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Contacts, newest first, with cursor paging */
        get: operations["listContacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contact's id. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        /** A contact with its timeline (the newest 500 entries, oldest first), with and without tickets */
        get: operations["getContact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner-configs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every partner configuration */
        get: operations["listPartnerConfigs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner-configs/{pageId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connected account's platform id. */
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        /** The partner configuration of an account */
        get: operations["getPartnerConfig"];
        /**
         * Replaces the partner configuration; missing parts take defaults; releases the account's held deliveries
         * @description A credential limited to some accounts gets 404 for the others' pages.
         */
        put: operations["putPartnerConfig"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner-configs/{pageId}/route-test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connected account's platform id. */
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Where routing would put an activity (the console's rule tester)
         * @description The first rule of the stored configuration that matches, as recording decides (DMs carry no language).
         */
        post: operations["testRouting"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner-configs/{pageId}/search-queries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connected account's platform id. */
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        /** Each configured search query of the account with its state (last run, last error, matches, next run) */
        get: operations["listSearchQueryStates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/held-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliveries held for accounts without a partner configuration, oldest first, with counts per account
         * @description A credential limited to some accounts must name one of its own in accountId (404 otherwise).
         */
        get: operations["listHeldDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Connected accounts as auth reported them (and revokes seen by webhook) */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's platform id. */
                accountId: components["schemas"]["PlatformId"];
            };
            cookie?: never;
        };
        /** One account as ticketing knows it */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description How old the provider data behind the answer is. `stale` when the provider failed and the last good record was served. */
        TrackingFreshness: {
            /** Format: date-time */
            fetchedAt: string;
            ageSeconds: number;
            stale: boolean;
            staleReason: string | null;
        };
        TrackingLiveView: {
            clientId: string;
            taskId: string;
            /** @example STARTED */
            status: string | null;
            /** @description ASSIGNED, NOTIFIED, ACKNOWLEDGED, STARTED or ARRIVED */
            active: boolean;
            /** @description Null for a finished task, or when no position is known. */
            rider: {
                lat: number;
                lng: number;
                /** Format: date-time */
                recordedAt: string;
                ageSeconds: number;
                /** @description Older than RIDER_STALE_AFTER_SECONDS. */
                stale: boolean;
                /**
                 * @description live: the reported position; status: where the newest status was recorded
                 * @enum {string}
                 */
                source: "live" | "status";
                name: string | null;
                phone: string | null;
            } | null;
            drop: {
                lat: number;
                lng: number;
                address: string | null;
            } | null;
            route: {
                distanceMeters: number;
                durationSeconds: number;
                geometry: {
                    /** @enum {string} */
                    type: "LineString";
                    /** @description [lng, lat] pairs (GeoJSON) */
                    coordinates: number[][];
                };
                /** @enum {string} */
                source: "router" | "straight-line";
            } | null;
            eta: {
                /** Format: date-time */
                at: string;
                /** @description From a straight-line estimate or a stale rider position. */
                approximate: boolean;
                /** @enum {string} */
                source: "provider" | "route";
            } | null;
            trackLink: string | null;
            /** @description Why there is no route. */
            notice: {
                /** @enum {string} */
                code: "completed" | "partially_completed" | "cancelled" | "not_active" | "no_rider_position" | "no_drop_location";
                message: string;
            } | null;
            freshness: components["schemas"]["TrackingFreshness"];
        };
        ErrorBody: {
            error: {
                code: string;
                /** @description What to fix; a refused request names every bad field. */
                message: string;
                /** @description A request this document refuses lists each problem here. */
                fields?: {
                    /** @enum {string} */
                    in: "path" | "query" | "header" | "cookie" | "body";
                    /** @example routing.rules[0].folder */
                    field: string;
                    /** @example is required */
                    message: string;
                }[];
            };
        };
        /** @example 0b6f6a6e-8c4f-4f0e-9a55-2f1f6d3c9e21 */
        Uuid: string;
        /** @example 2975699229 */
        PlatformId: string;
        /** @enum {string} */
        Scope: "tickets:read" | "tickets:write" | "accounts:manage" | "tracking:manage" | "admin";
        /** @enum {string} */
        Status: "open" | "pending" | "resolved" | "closed" | "merged";
        /** @enum {string} */
        Priority: "low" | "normal" | "high" | "urgent";
        /** @enum {string} */
        CrmEventType: "ticket.created" | "ticket.updated" | "ticket.activity" | "ticket.merged" | "ticket.unmerged" | "ticket.sla_breached" | "ticket.sla_at_risk" | "account.silent" | "account.delivering";
        /** @enum {string} */
        SocialEventKind: "post_by_account" | "reply_by_account" | "quote_by_account" | "repost_by_account" | "mention" | "reply_to_account" | "quote_of_account" | "repost_of_account" | "post_deleted" | "like_by_account" | "like_of_account" | "follow_by_account" | "follow_of_account" | "unfollow_by_account" | "unfollow_of_account" | "block" | "unblock" | "mute" | "unmute" | "dm_received" | "dm_sent" | "dm_typing" | "dm_read" | "subscription_revoked";
        OrderLink: {
            clientId: string;
            taskId: string;
            /** Format: date-time */
            linkedAt: string;
            tracking: {
                /** @description Null until tracking has answered for this link. */
                available: boolean | null;
                /** @description `available`, tracking's reason why not (client_not_found, client_disabled, task_not_found, provider_unavailable, ...), or `not_checked`. */
                reason: string;
                message: string;
                /** Format: date-time */
                checkedAt: string | null;
                /** @description The answer is older than TRACKING_REFRESH_AFTER_MS: tracking did not answer in time when asked again (lists never ask). */
                stale: boolean;
            };
        };
        TicketChange: {
            /**
             * @description merged comes only from POST /v1/tickets/{id}/merge.
             * @enum {string}
             */
            status?: "open" | "pending" | "resolved" | "closed";
            /** @description An agent id; null unassigns. */
            assignee?: string | null;
            team?: string | null;
            priority?: components["schemas"]["Priority"];
            queue?: string;
            folder?: string;
            /** @description Replaces the tags (no commas or spaces in a tag). */
            tags?: string[];
        };
        EvidenceSnapshot: {
            clientId: string;
            taskId: string;
            rider: components["schemas"]["LatLng"];
            drop: components["schemas"]["LatLng"];
            distanceMeters: number;
            /** Format: date-time */
            etaAt: string | null;
            status: string;
            /** Format: date-time */
            positionAt: string;
        };
        LatLng: {
            lat: number;
            lng: number;
        };
        WebhookEndpoint: components["schemas"]["WebhookEndpointFields"];
        WebhookEndpointFields: {
            id: components["schemas"]["Uuid"];
            url: string;
            description: string | null;
            /** @description Empty means every type. */
            eventTypes: components["schemas"]["CrmEventType"][];
            /** Format: date-time */
            createdAt: string;
        };
        Person: {
            id: components["schemas"]["Uuid"];
            screenName: string | null;
            name: string | null;
        };
        Ticket: components["schemas"]["TicketFields"];
        /** @description How many open or pending tickets each view of the agents' workspace holds. */
        TicketCounts: {
            open: number;
            mine: number;
            unassigned: number;
            breached: number;
            /** @description Each queue and folder holding open or pending tickets, by queue then folder. */
            folders: {
                queue: string;
                folder: string;
                count: number;
            }[];
        };
        TicketFields: {
            id: components["schemas"]["Uuid"];
            accountId: string;
            status: components["schemas"]["Status"];
            /** @enum {string} */
            channel: "dm" | "public";
            queue: string;
            folder: string;
            /** @description The routing rule that chose queue and folder; null for the defaults. */
            routingRule: string | null;
            contact: components["schemas"]["Person"] | null;
            subject: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** Format: date-time */
            lastActivityAt: string;
            sla: {
                /**
                 * Format: date-time
                 * @description When the first-response clock runs out (business time when the configuration has business hours); null once it stopped (first response, resolved, closed) unless it had run out.
                 */
                firstResponseDueAt: string | null;
                /**
                 * Format: date-time
                 * @description Null while paused (pending) or stopped (resolved, closed) unless it had run out.
                 */
                resolutionDueAt: string | null;
                /**
                 * Format: date-time
                 * @description When the platform accepted the first reply sent from the ticket (its first response).
                 */
                firstRespondedAt: string | null;
                /** @description A clock ran out; stays true. */
                breached: boolean;
                breaches: {
                    /** @enum {string} */
                    kind: "first_response" | "resolution";
                    /**
                     * Format: date-time
                     * @description When the clock ran out.
                     */
                    at: string;
                }[];
                /** @description A running clock is past the configuration's atRiskPercent of its budget and has not run out. */
                atRisk: boolean;
                /** @description The resolution clock is paused (the ticket is pending). */
                paused: boolean;
            };
            /** @description Open or pending DM tickets only; current state, not history. */
            conversationState: {
                typing: {
                    /** Format: date-time */
                    contactAt: string | null;
                    /** Format: date-time */
                    accountAt: string | null;
                };
                read: {
                    contact: components["schemas"]["ReadReceipt"];
                    account: components["schemas"]["ReadReceipt"];
                };
            } | null;
            /** @description The order the ticket is linked to; null when none. */
            order: components["schemas"]["OrderLink"] | null;
            /** @description The agent it is assigned to. */
            assignee: string | null;
            team: string | null;
            priority: components["schemas"]["Priority"];
            tags: string[];
            /** @description Status merged: the ticket that took its timeline. */
            mergedInto: components["schemas"]["Uuid"] | null;
            /** @description The partner configuration's merge rule that merged it (same_contact_within_window); null when a person did. */
            mergeRule: string | null;
            /** @description The text of the conversation's latest message (inbound or outbound, not deleted), at most 200 characters, as lists show it; null before any. */
            snippet: string | null;
        };
        TicketDetail: components["schemas"]["TicketFields"] & {
            activities: components["schemas"]["Activity"][];
        };
        ReadReceipt: {
            lastReadEventId: string;
            /** Format: date-time */
            readAt: string;
        } | null;
        Activity: {
            id: components["schemas"]["Uuid"];
            /** @description Null for entries on a contact's timeline only. */
            ticketId: components["schemas"]["Uuid"] | null;
            /**
             * @description A social event kind: dm_received, dm_sent, mention, reply_to_account, reply_by_account, quote_of_account, like_of_account, block, ...; sla_breached for a breach on the timeline; note, evidence_snapshot, status_changed, ticket_updated, action, merged ... for internal entries.
             * @example dm_received
             */
            kind: string;
            /**
             * @description internal: made here (notes, changes, merges, actions), never sent to the platform.
             * @enum {string}
             */
            direction: "inbound" | "outbound" | "event" | "internal";
            /** @description Who made an internal entry or sent a reply: the principal's id (an agent's id for a signed-in agent; crm for a CRM token), or system. */
            by: string | null;
            /** @description The name of who made it (an agent's display name, a credential's name), as last recorded when it wrote; null for system and the platform's activity. */
            byName: string | null;
            /** @description What an internal entry holds: changes {field: {from, to}}, evidence, merge sourceIds/rule, action input. */
            data: Record<string, never> | null;
            text: string | null;
            /** @description Null only while a send of this system is pending, and for internal entries. */
            platformEventId: string | null;
            /** Format: date-time */
            occurredAt: string;
            deleted: boolean;
            /** @description Who wrote it, for inbound activity (in a thread, each reply's own author). */
            author: components["schemas"]["Person"] | null;
            attachments: {
                /** @example photo */
                type: string;
                url: string | null;
                mediaId: string | null;
            }[];
            /**
             * @description Replies and actions sent from a ticket only: pending until auth reports; sent (platformEventId set); failed; unknown (a send timed out: it may have gone out and is not sent again).
             * @enum {string|null}
             */
            status: "pending" | "sent" | "failed" | "unknown" | null;
            /** @description Why a send failed or has an unknown outcome. */
            failure: {
                /**
                 * @description auth's code (platform_rejected, reconnect_needed, account_not_connected, rate_limited, outcome_unknown, ...) or not_sent.
                 * @example platform_rejected
                 */
                code: string;
                /** @description The platform's message when it answered. */
                message: string;
                /** @example 349 */
                platformCode: number | null;
            } | null;
            /** @description How the activity came first; a post found by a search query and delivered by webhook is one activity either way. */
            source: {
                /** @enum {string} */
                kind: "webhook" | "search";
                /** @description The search query that found it. */
                query: string | null;
            };
            /**
             * Format: date-time
             * @description When a delivery last changed the text: the DM or post came again under its id with another text. Null: never edited.
             */
            editedAt: string | null;
            /** @description The other texts the activity had, oldest first (text is the newest, by when webhook-ingest received it). */
            edits: {
                text: string | null;
                /**
                 * Format: date-time
                 * @description When its delivery was received (null for a reply sent from the ticket).
                 */
                receivedAt: string | null;
                /**
                 * Format: date-time
                 * @description When the text that replaced it was received; null for an older text delivered after a newer one.
                 */
                replacedAt: string | null;
            }[];
        };
        SearchQueryState: {
            query: string;
            intervalSeconds: number;
            includeReposts: boolean;
            /** Format: date-time */
            lastRunAt: string | null;
            /** Format: date-time */
            lastSuccessAt: string | null;
            /** Format: date-time */
            nextRunAt: string | null;
            lastError: {
                /**
                 * @description rate_limited, auth_unavailable, or auth's code (account_not_connected, reconnect_needed, platform_rejected, platform_unavailable, budget_exhausted).
                 * @example rate_limited
                 */
                code: string;
                message: string;
            } | null;
            /**
             * Format: date-time
             * @description The platform's x-rate-limit-reset: no run before it.
             */
            rateLimitedUntil: string | null;
            /** @description The newest post id seen; the next run asks for newer ones. */
            sinceId: string | null;
            /** @description New activities the last successful run made. */
            lastMatches: number;
            /** @description New activities all runs made. */
            matches: number;
            /** @description The interval the next run waits: intervalSeconds, doubled after each run that found nothing (up to SEARCH_IDLE_INTERVAL_MAX_SECONDS), back to intervalSeconds after one that found posts. */
            currentIntervalSeconds: number;
            /** @description Dollars 30 days of runs at the current interval would cost at the recent cost per run (posts read at the platform's price); null before a successful run. */
            estimatedMonthlyCost: number | null;
        };
        SearchQuery: string | {
            query: string;
            /** @default 300 */
            intervalSeconds: number;
            /** @default false */
            includeReposts: boolean;
        };
        /** @description Clocks count only the time inside these intervals, in local time of the zone (DST followed). */
        BusinessHours: {
            /**
             * @description An IANA time zone.
             * @example Europe/Madrid
             */
            timeZone: string;
            /** @description Per weekday (mon ... sun), ordered non-overlapping ["HH:MM", "HH:MM"] intervals; the end may be 24:00; at least one day opens. */
            weekly: {
                mon?: components["schemas"]["DayHours"];
                tue?: components["schemas"]["DayHours"];
                wed?: components["schemas"]["DayHours"];
                thu?: components["schemas"]["DayHours"];
                fri?: components["schemas"]["DayHours"];
                sat?: components["schemas"]["DayHours"];
                sun?: components["schemas"]["DayHours"];
            };
        };
        /**
         * @example [
         *       [
         *         "09:00",
         *         "14:00"
         *       ],
         *       [
         *         "15:00",
         *         "18:00"
         *       ]
         *     ]
         */
        DayHours: string[][];
        SlaMinutes: {
            firstResponseMinutes?: number;
            resolutionMinutes?: number;
        };
        Contact: components["schemas"]["ContactFields"];
        ContactFields: {
            id: components["schemas"]["Uuid"];
            accountId: string;
            platformUserId: string;
            screenName: string | null;
            name: string | null;
            avatarUrl: string | null;
            followersCount: number | null;
            verified: boolean | null;
            /** @description The account has blocked this user. */
            blocked: boolean;
            /** Format: date-time */
            blockedChangedAt: string | null;
            muted: boolean;
            /** Format: date-time */
            mutedChangedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /** @enum {string} */
        AccountStatus: "connected" | "disconnected" | "revoked" | "needs_reconnect";
        Account: {
            accountId: string;
            status: components["schemas"]["AccountStatus"];
            screenName: string | null;
            /** @description Masked. */
            consumerKey: string | null;
            /** @description Masked. */
            accessToken: string | null;
            /** Format: date-time */
            statusChangedAt: string;
            /** @description The silence alarm: the account usually gets deliveries and has had none since `silentSince` (account.silent was published at `detectedAt`); null while it delivers. */
            silence: {
                /**
                 * Format: date-time
                 * @description When the last delivery before the silence was received.
                 */
                silentSince: string;
                /** Format: date-time */
                detectedAt: string;
            } | null;
        };
        /** @enum {string} */
        Disposition: "ticket" | "timeline" | "ignore";
        Name: string;
        RoutingRule: {
            name: components["schemas"]["Name"];
            /** @description Every condition given must hold; within one, any value matches. */
            when?: {
                kinds?: ("dm_received" | "mention" | "quote_of_account" | "reply_to_account" | "repost_of_account" | "like_of_account" | "follow_of_account" | "unfollow_of_account")[];
                /** @description Whole words or phrases, case-insensitive. */
                keywords?: string[];
                senders?: string[];
                /** @description Primary tags (en matches en-GB); DMs carry no language. */
                languages?: string[];
            };
            queue: components["schemas"]["Name"];
            folder: components["schemas"]["Name"];
        };
        SlaConfig: {
            /** @default 60 */
            firstResponseMinutes: number;
            /** @default 1440 */
            resolutionMinutes: number;
            /** @default null */
            businessHours: components["schemas"]["BusinessHours"] | null;
            /**
             * @description A ticket is at risk (flagged, ticket.sla_at_risk published) once a clock used this share of its budget.
             * @default null
             */
            atRiskPercent: number | null;
            /** @description Minutes of a priority, over the general ones; a priority change re-evaluates the clocks. */
            byPriority?: {
                low?: components["schemas"]["SlaMinutes"];
                normal?: components["schemas"]["SlaMinutes"];
                high?: components["schemas"]["SlaMinutes"];
                urgent?: components["schemas"]["SlaMinutes"];
            };
        };
        RoutingConfig: {
            /** @default social */
            defaultQueue: components["schemas"]["Name"];
            /** @default inbox */
            defaultFolder: components["schemas"]["Name"];
            /** @description Ordered; the first match wins. */
            rules?: components["schemas"]["RoutingRule"][];
        };
        PolicyConfig: {
            /** @default ticket */
            dmReceived: components["schemas"]["Disposition"];
            /** @default ticket */
            mention: components["schemas"]["Disposition"];
            /** @default ticket */
            quoteOfAccount: components["schemas"]["Disposition"];
            /** @default ticket */
            replyToAccount: components["schemas"]["Disposition"];
            /** @default timeline */
            repostOfAccount: components["schemas"]["Disposition"];
            /** @default timeline */
            likeOfAccount: components["schemas"]["Disposition"];
            /** @default timeline */
            followOfAccount: components["schemas"]["Disposition"];
            /** @default timeline */
            unfollowOfAccount: components["schemas"]["Disposition"];
            /**
             * @description A resolved ticket takes new messages for this long after its resolution.
             * @default 10080
             */
            reopenWindowMinutes: number;
        };
        MergeConfig: {
            /** @default false */
            enabled: boolean;
            /** @default 60 */
            windowMinutes: number;
        };
        /** @description Every part optional; what is missing takes its default. Read-only parts of a GET answer are accepted and ignored, so a GET answer can be PUT back. */
        PartnerConfigInput: {
            /** @description Must match the path when given. */
            pageId?: components["schemas"]["PlatformId"];
            pageName?: string | null;
            /** @description Read-only: accepted and ignored. */
            consumerKey?: string | null;
            /** @description Read-only: accepted and ignored. */
            accessToken?: string | null;
            /** @description Read-only: accepted and ignored. */
            accountStatus?: string | null;
            /** @description Read-only: accepted and ignored. */
            createdAt?: string;
            /** @description Read-only: accepted and ignored. */
            updatedAt?: string;
            sla?: components["schemas"]["SlaConfig"];
            routing?: components["schemas"]["RoutingConfig"];
            policy?: components["schemas"]["PolicyConfig"];
            /** @description Run on their intervals as the account (auth's search); no query twice (case-insensitive). */
            searchQueries?: components["schemas"]["SearchQuery"][];
            merge?: components["schemas"]["MergeConfig"];
        };
        PartnerConfig: {
            pageId: components["schemas"]["PlatformId"];
            pageName: string | null;
            /** @description Masked, as auth reported it; null until then. */
            consumerKey: string | null;
            /** @description Masked, as auth reported it; null until then. */
            accessToken: string | null;
            accountStatus: components["schemas"]["AccountStatus"] | null;
            sla: components["schemas"]["SlaConfig"];
            routing: components["schemas"]["RoutingConfig"];
            policy: components["schemas"]["PolicyConfig"];
            /** @description As PUT (strings stay strings). */
            searchQueries: components["schemas"]["SearchQuery"][];
            merge: components["schemas"]["MergeConfig"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
    };
    responses: {
        /** @description 400 `invalid_json` (a body that is not JSON) or `too_deep`: every route parses a JSON body when one is sent; `invalid_parameter` for a query parameter this document does not list. */
        BadBody: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 400, naming each bad field in `message` (e.g. `body.text is required`, `query.limit must be <= 200`) and, for what this document refuses, listing them in `fields`. A path or query parameter: `invalid_parameter`. A body: the operation's `x-invalid-request-code` (`invalid_change`, `invalid_note`, `invalid_merge`, `invalid_action`, `invalid_route_test`, `invalid_reply`, `invalid_order_link`, `invalid_partner_config`, `invalid_webhook_endpoint`, `invalid_replay`), the same code the service gives what this document cannot say (a reply too long for a public post, a time zone, a repeated search query). A body that is not JSON: `invalid_json`, `too_deep`. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 401 `unauthorized`: no bearer token, or one that is unknown or revoked. */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 403 `missing_scope`: the credential lacks the scope named in the message, e.g. "this credential lacks the scope tickets:write"; `outside_ticket_scope`: a session limited to tickets (a launch link) reaches only GET /v1/me, GET /v1/events and its tickets' routes. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 404: `ticket_not_found`, `contact_not_found`, `partner_config_not_found`, `account_not_found`, `webhook_endpoint_not_found`, `event_not_found`, `order_not_linked`; a credential limited to some accounts is answered 404 for the others' tickets, configurations and accounts, as if they did not exist. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 409: the request cannot apply to the current state: `account_unavailable`, `no_recipient`, `nothing_to_reply_to`, `ticket_merged` (a reply to a ticket merged meanwhile; the message names the ticket it went into), `nothing_to_act_on`, `forbidden_transition`, `merge_refused`, `not_merged`, `unmerge_refused`, `webhooks_not_configured`, `idempotency_key_reused`. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 413 `payload_too_large`: the body is larger than the limit (1 MB). */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 415 `unsupported_media_type`: the body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 429 `rate_limited` (the credential used its API_RATE_LIMIT_PER_MINUTE) or `too_many_failures` (this address failed to authenticate AUTH_FAILURES_PER_MINUTE times); wait Retry-After seconds. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 500 `internal`: something failed on the service's side (details only in its log). */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 503 `auth_unavailable`: auth could not check the credential in time; try again after Retry-After. */
        AuthUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description 200 ready, or 503 not_ready with `checks` saying what is missing. */
        Readiness: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "ready" | "not_ready";
                    /**
                     * @example {
                     *       "broker": true,
                     *       "database": true
                     *     }
                     */
                    checks: {
                        [key: string]: boolean;
                    };
                };
            };
        };
        /** @description Recorded; the command is on its way to auth. */
        Pending: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    activityId: components["schemas"]["Uuid"];
                    /** @enum {string} */
                    status: "pending";
                };
            };
        };
        /** @description The ticket with its timeline, as GET /v1/tickets/{id}. */
        TicketDetail: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["TicketDetail"];
            };
        };
    };
    parameters: {
        /** @description Optional: 1 to 100 letters, digits or ._:- (a UUID fits), else 400 invalid_idempotency_key. A repeat of the request (same principal, same account of the ticket, same key, same operation, ticket and body) within IDEMPOTENCY_KEY_TTL_HOURS gets the first answer (header Idempotent-Replayed: true) and sends nothing; the key with another request: 409 idempotency_key_reused. Concurrent repeats wait for the first. */
        IdempotencyKey: string;
        /** @description The nextCursor of the previous page. */
        Cursor: string;
        /** @description Items per page, 1 to 200 (default 50). */
        Limit: number;
        /** @description The ticket's id. */
        TicketId: components["schemas"]["Uuid"];
        /** @description The endpoint's id. */
        WebhookEndpointId: components["schemas"]["Uuid"];
        /** @description The connected account's platform id. */
        PageId: components["schemas"]["PlatformId"];
    };
    requestBodies: never;
    headers: {
        /** @description Seconds to wait. */
        RetryAfter: number;
        /** @description Bearer. */
        WwwAuthenticate: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process runs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "live";
                    };
                };
            };
            400: components["responses"]["BadBody"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Readiness"];
            400: components["responses"]["BadBody"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Readiness"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics, in the Prometheus text format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadBody"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document, as JSON. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["BadBody"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getDocsPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page rendering this document (its scripts are served from this origin). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["BadBody"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["InternalError"];
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The principal. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The credential id, or bootstrap-<n> for a CRM_API_TOKENS token. */
                        id: string;
                        name: string;
                        scopes: components["schemas"]["Scope"][];
                        /** @description Null for every account. */
                        accountIds: string[] | null;
                        /** @description Null for every client. */
                        trackingClientIds: string[] | null;
                        /** @description The only tickets a launch session reaches; null when not limited to tickets. */
                        ticketIds: string[] | null;
                        /** @description The session auth issued this token for (console sign-in or launch link); null for a credential's own token. */
                        sessionId: string | null;
                        bootstrap: boolean;
                    };
                };
            };
            400: components["responses"]["BadBody"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listTickets: {
        parameters: {
            query?: {
                accountId?: components["schemas"]["PlatformId"];
                queue?: string;
                folder?: string;
                /** @description The tickets of one customer: a contact's id (a ticket's `contact.id`). */
                contactId?: components["schemas"]["Uuid"];
                /** @description One status or a comma-separated set (open,pending). */
                status?: string;
                /** @description An agent's id; `me`: the asking agent; `none`: tickets nobody is assigned. */
                assignee?: string;
                priority?: components["schemas"]["Priority"];
                /** @description Tickets carrying this tag. */
                tag?: string;
                /** @description Tickets changed at or after this time. */
                updatedSince?: string;
                /** @description true: only tickets whose SLA is breached. */
                breached?: boolean;
                /** @description created (newest ticket first, the default) or lastActivity (newest activity first); a cursor belongs to its order. */
                order?: "created" | "lastActivity";
                /** @description Search, at least 2 letters or digits (a shorter one is refused 400 invalid_search): words (matched as written and stemmed in the ticket's language), "exact phrases", order numbers (#100234, ORD-100234 or 100234) and @handles, all of them on the same ticket, in its subject, the customer's screen name or name, or any activity's text (deleted ones aside). Combines with every other filter, scoped to the accounts the caller may read, in the list's order (newest first). Each credential runs a few searches at a time (SEARCHES_PER_CREDENTIAL): more answer 429 search_busy with Retry-After; a search that takes longer than SEARCH_STATEMENT_TIMEOUT_MS answers 503 search_timeout (add an accountId or more words). */
                q?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Items per page, 1 to 200 (default 50). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Ticket"][];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    changeTickets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: components["schemas"]["Uuid"][];
                    change: components["schemas"]["TicketChange"];
                };
            };
        };
        responses: {
            /** @description The tickets after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["TicketDetail"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    countTickets: {
        parameters: {
            query?: {
                accountId?: components["schemas"]["PlatformId"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketCounts"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["TicketDetail"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    changeTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketChange"];
            };
        };
        responses: {
            200: components["responses"]["TicketDetail"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    sendReply: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: 1 to 100 letters, digits or ._:- (a UUID fits), else 400 invalid_idempotency_key. A repeat of the request (same principal, same account of the ticket, same key, same operation, ticket and body) within IDEMPOTENCY_KEY_TTL_HOURS gets the first answer (header Idempotent-Replayed: true) and sends nothing; the key with another request: 409 idempotency_key_reused. Concurrent repeats wait for the first. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An image for a DM, uploaded through auth beforehand. */
                    attachment?: {
                        /** @description The media id auth's upload answered (usable for 24 hours). */
                        mediaId: string;
                    };
                    /** @description Not blank; at most 10000 characters on a DM ticket, 280 on a public one (code points, the platform's limits): checked per channel and refused in a sentence giving the length and the limit. The document only bounds what is read. */
                    text?: string;
                } | unknown | unknown;
            };
        };
        responses: {
            202: components["responses"]["Pending"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            /** @description `account_unavailable` (the account is disconnected, revoked or needs a reconnect), `no_recipient` (a DM ticket without contact), `nothing_to_reply_to` (a public ticket without a customer post), `idempotency_key_reused` (the Idempotency-Key was used for another request). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    linkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    clientId: string;
                    taskId: string;
                };
            };
        };
        responses: {
            /** @description The link. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderLink"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `order_client_unknown` or `order_task_unknown`: tracking has no such client or task; the message says what to check. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    unlinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getOrderLiveView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The view. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingLiveView"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description `missing_scope`, `outside_ticket_scope`, or tracking's `client_disabled`. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `provider_rejected`: the provider refused the lookup. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            /** @description `provider_auth_failed`: the provider refused the client's key. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `auth_unavailable`, `tracking_unavailable`, `provider_unavailable` or `circuit_open`; wait Retry-After seconds when given. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `provider_timeout`: the provider did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    announcePresence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    state: "viewing" | "typing" | "left";
                };
            };
        };
        responses: {
            /** @description Announced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        state: "viewing" | "typing" | "left";
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    addNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    text?: string;
                    evidence?: components["schemas"]["EvidenceSnapshot"] | null;
                };
            };
        };
        responses: {
            /** @description The timeline entry (kind note, or evidence_snapshot with data.evidence; direction internal; by the principal). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Activity"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    mergeTickets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    sourceIds: components["schemas"]["Uuid"][];
                };
            };
        };
        responses: {
            200: components["responses"]["TicketDetail"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    unmergeTickets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    sourceIds?: components["schemas"]["Uuid"][];
                };
            };
        };
        responses: {
            200: components["responses"]["TicketDetail"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    actFromTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional: 1 to 100 letters, digits or ._:- (a UUID fits), else 400 invalid_idempotency_key. A repeat of the request (same principal, same account of the ticket, same key, same operation, ticket and body) within IDEMPOTENCY_KEY_TTL_HOURS gets the first answer (header Idempotent-Replayed: true) and sends nothing; the key with another request: 409 idempotency_key_reused. Concurrent repeats wait for the first. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description The ticket's id. */
                id: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "like" | "unlike" | "repost" | "follow" | "unfollow" | "mute" | "unmute" | "block" | "unblock";
                    /** @description Only with like, unlike, repost. */
                    postId?: string;
                };
            };
        };
        responses: {
            202: components["responses"]["Pending"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description Only this account's changes. */
                accountId?: components["schemas"]["PlatformId"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            /** @description `too_many_streams` (the credential or the process holds as many streams as allowed), `rate_limited` or `too_many_failures`; wait Retry-After seconds. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["WebhookEndpoint"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    registerWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description http or https, no credentials.
                     */
                    url: string;
                    description?: string | null;
                    /** @description Empty or absent: every type. */
                    eventTypes?: components["schemas"]["CrmEventType"][];
                };
            };
        };
        responses: {
            /** @description Registered. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointFields"] & {
                        /** @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw */
                        secret: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    removeWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listWebhookFailures: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The failures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            id: string;
                            eventId: string;
                            eventType: components["schemas"]["CrmEventType"];
                            attempts: number;
                            /**
                             * @description 'the endpoint answered <status>', or 'delivery failed: the endpoint could not be reached' for every failure to reach it (a refused address, a failed lookup, a refused or reset connection, a timeout, TLS): the causes are in the service's log only.
                             * @example delivery failed: the endpoint could not be reached
                             */
                            lastError: string | null;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    replayWebhookEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    eventId: string;
                };
            };
        };
        responses: {
            /** @description Queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "pending";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listContacts: {
        parameters: {
            query?: {
                accountId?: components["schemas"]["PlatformId"];
                /** @description Exact, case-insensitive; a leading @ is allowed. */
                screenName?: string;
                platformUserId?: components["schemas"]["PlatformId"];
                /** @description The nextCursor of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Items per page, 1 to 200 (default 50). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Contact"][];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contact's id. */
                id: components["schemas"]["Uuid"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contact. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactFields"] & {
                        timeline: components["schemas"]["Activity"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listPartnerConfigs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All of them, by page id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["PartnerConfig"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getPartnerConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connected account's platform id. */
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The configuration. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PartnerConfig"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    putPartnerConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connected account's platform id. */
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PartnerConfigInput"];
            };
        };
        responses: {
            /** @description Replaced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PartnerConfig"];
                };
            };
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PartnerConfig"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    testRouting: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connected account's platform id. */
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    kind: components["schemas"]["SocialEventKind"];
                    text?: string | null;
                    /**
                     * @description @screen_name or a platform user id.
                     * @example @ana
                     */
                    sender?: string | null;
                    /** @example en */
                    lang?: string | null;
                };
            };
        };
        responses: {
            /** @description The decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The matching rule's name; null for the defaults. */
                        rule: string | null;
                        queue: string;
                        folder: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listSearchQueryStates: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The connected account's platform id. */
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queries, in configuration order (never run yet: null times, no matches). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SearchQueryState"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listHeldDeliveries: {
        parameters: {
            query?: {
                accountId?: components["schemas"]["PlatformId"];
                /** @description The nextCursor of the previous page. */
                cursor?: components["parameters"]["Cursor"];
                /** @description Items per page, 1 to 200 (default 50). */
                limit?: components["parameters"]["Limit"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counts and one page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accounts: {
                            accountId: string;
                            deliveries: number;
                            events: number;
                            /** Format: date-time */
                            oldestHeldAt: string;
                        }[];
                        /** @description Per account, held deliveries deleted past HELD_TTL_DAYS (they stay in the raw log). */
                        expired: {
                            accountId: string;
                            deliveries: number;
                            /** Format: date-time */
                            lastExpiredAt: string;
                        }[];
                        items: {
                            id: string;
                            accountId: string;
                            envelopeId: string;
                            /** @example direct_message_events */
                            kind: string;
                            eventCount: number;
                            /** Format: date-time */
                            heldAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    listAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All of them. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Account"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's platform id. */
                accountId: components["schemas"]["PlatformId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["AuthUnavailable"];
        };
    };
}

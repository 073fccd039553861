/* Generated from services/console/openapi.yaml by `pnpm --filter @crm/console generate:api`: do not edit. */

export interface paths {
    "/api/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session, with its CSRF token */
        get: operations["getSession"];
        put?: never;
        /**
         * Sign in as an agent (email and password), or with a CRM API credential (development)
         * @description JSON only, so a cross-site form cannot post it. The console asks auth (with its own credential, scope sessions:issue) for a session of this agent (email and password) or credential, telling it the browser's address; the answer sets `console_session`, an httpOnly signed cookie holding the session token encrypted, never the password or credential. It lives as long as auth's session. A wrong email and a wrong password get the same 401; failures are limited per browser address (429 with Retry-After).
         */
        post: operations["signIn"];
        /**
         * Sign out
         * @description Ends the session at auth (so a copy of the cookie no longer works anywhere), then clears the cookie.
         */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/launch-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A short-lived link opening one ticket (asked by the CRM)
         * @description Server to server, with a token of CRM_API_TOKENS. Opening the link (once, within LAUNCH_TTL_SECONDS) gives the frame a session auth limits to that ticket, for LAUNCH_SESSION_TTL_SECONDS. With `agent`, the session acts as that agent (found by externalId, else email; one not known yet is created with the role agent and no password), so what they do on the ticket carries their name.
         */
        post: operations["createLaunchLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/launch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open a launch link */
        get: operations["openLaunchLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The accounts, merged from auth and ticketing, with their configurations
         * @description auth's and ticketing's accounts with their partner configurations and webhooks, API keys masked: `{items: [...]}`. When a service fails, its answer is relayed.
         */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start connecting a social account
         * @description Relays auth's `POST /v1/connections` (its `authorizeUrl`) with the chosen protocol. Without `protocol`, auth connects with OAuth 1.0a, as before.
         */
        post: operations["startConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partner-configs/{pageId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        /**
         * An account's partner configuration
         * @description Relays ticketing's `GET /v1/partner-configs/{pageId}`.
         */
        get: operations["getPartnerConfig"];
        /**
         * Save an account's partner configuration
         * @description Relays ticketing's `PUT /v1/partner-configs/{pageId}`.
         */
        put: operations["putPartnerConfig"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partner-configs/{pageId}/route-test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Try the routing rules on a sample message
         * @description Relays ticketing's rule tester (`POST /v1/partner-configs/:pageId/route-test`).
         */
        post: operations["testRoutes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partner-configs/{pageId}/order-reference-test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Find the order references in a sample message
         * @description Relays ticketing's order-reference tester (`POST /v1/partner-configs/:pageId/order-reference-test`): each reference the saved configuration finds, its task id and whether tracking knows the task.
         */
        post: operations["testOrderReferences"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/partner-configs/{pageId}/search-queries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        /**
         * Each configured search query with its state (last run, last error, next run)
         * @description Relays ticketing's `GET /v1/partner-configs/{pageId}/search-queries`.
         */
        get: operations["listSearchQueryStates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The conversation list of the workspace
         * @description Relays ticketing's `GET /v1/tickets` with these filters (ticketing checks their values; `assignee=me` is the signed-in agent).
         */
        get: operations["listTickets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ticket-counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The views' counts of the workspace
         * @description Relays ticketing's `GET /v1/ticket-counts`: open and pending tickets in all, the agent's, unassigned, breached, and each queue and folder.
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
    "/api/tickets/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        /**
         * A ticket
         * @description Relays ticketing's `GET /v1/tickets/{ticketId}`.
         */
        get: operations["getTicket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a ticket
         * @description Relays ticketing's `PATCH /v1/tickets/{ticketId}`.
         */
        patch: operations["changeTicket"];
        trace?: never;
    };
    "/api/tickets/{ticketId}/presence": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Say the agent is on the ticket (viewing, typing) or has left it
         * @description Relays ticketing's `PUT /v1/tickets/{ticketId}/presence`: every event stream that hears the ticket (every console replica's) gets `agent.presence` with the agent's id, name, state and until when it counts. The page says it again every 10 s while the ticket is open.
         */
        put: operations["announcePresence"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agents, for the assignee picker
         * @description Relays auth's `GET /v1/agents` (needs tickets:read).
         */
        get: operations["listAgents"];
        put?: never;
        /**
         * Create an agent (an admin only)
         * @description Relays auth's `POST /v1/agents` as the signed-in agent: auth refuses anyone but an admin (403).
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an agent's name, role, teams or whether it is active (an admin only)
         * @description Relays auth's `PATCH /v1/agents/{agentId}` as the signed-in agent: auth refuses anyone but an admin (403), and the last active admin's demotion or deactivation (409).
         */
        patch: operations["changeAgent"];
        trace?: never;
    };
    "/api/agents/{agentId}/password": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Set a new password for an agent (an admin only)
         * @description Relays auth's `PUT /v1/agents/{agentId}/password` as the signed-in agent.
         */
        put: operations["resetAgentPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * The signed-in agent changes its own password
         * @description Relays auth's `PUT /v1/me/password` (the current password and the new one).
         */
        put: operations["changeOwnPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The teams, for the team picker
         * @description Relays auth's `GET /v1/teams` (needs tickets:read).
         */
        get: operations["listTeams"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/teams/{teamId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                teamId: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Create or rename a team (an admin only)
         * @description Relays auth's `PUT /v1/teams/{teamId}` as the signed-in agent.
         */
        put: operations["saveTeam"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Platform calls and their cost per account, day and kind of call
         * @description Relays auth's `GET /v1/usage` (whoever may read tickets, for the accounts they may see).
         */
        get: operations["usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The same usage as a CSV file to download
         * @description Relays auth's `GET /v1/usage.csv` as the file it is.
         */
        get: operations["usageCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/accounts/{accountId}/budget": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        /**
         * An account's monthly budget
         * @description Relays auth's `GET /v1/accounts/{accountId}/budget` (the budget and this month's spend; 404 `no_budget` when it has none).
         */
        get: operations["getBudget"];
        /**
         * Set an account's monthly budget (accounts:manage)
         * @description Relays auth's `PUT /v1/accounts/{accountId}/budget` as the signed-in agent; auth's 400 names the refused fields.
         */
        put: operations["saveBudget"];
        post?: never;
        /**
         * Remove an account's budget (its calls are no longer limited)
         * @description Relays auth's `DELETE /v1/accounts/{accountId}/budget` as the signed-in agent.
         */
        delete: operations["removeBudget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the platform's credit is spent, and how many replies wait for it
         * @description Relays auth's `GET /v1/app/status`; the console's banner reads it.
         */
        get: operations["appStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/app/credit-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check now whether the platform's credit is back (an admin only)
         * @description Relays auth's `POST /v1/app/credit-check`; when credit is back auth sends the held replies, in order, before it answers.
         */
        post: operations["checkCredit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply to a ticket's customer
         * @description Relays ticketing's `POST /v1/tickets/{ticketId}/replies`, with the `Idempotency-Key`.
         */
        post: operations["replyToTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/media": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload an image for a DM reply
         * @description Reads the ticket as the agent (ticketing's `GET /v1/tickets/{ticketId}`), then relays the image to auth's `POST /v1/accounts/{accountId}/media` for the ticket's account, which uploads it to the platform; answers the media id a reply names in `attachment.mediaId`. auth's refusals are relayed: 415 for a file that is not a JPEG, PNG, WEBP or GIF image, 413 for one over 5 MB, each with a sentence saying what to do.
         */
        post: operations["uploadReplyImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add an internal note
         * @description Relays ticketing's `POST /v1/tickets/{ticketId}/notes`.
         */
        post: operations["addNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge tickets into this one
         * @description Relays ticketing's `POST /v1/tickets/{ticketId}/merge`.
         */
        post: operations["mergeTickets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/actions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Act on the account's behalf from a ticket (like, repost, follow, mute, block and their undoing)
         * @description Relays ticketing's `POST /v1/tickets/{ticketId}/actions`, with the `Idempotency-Key`.
         */
        post: operations["actOnTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/unmerge": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take merged tickets out of this one again
         * @description Relays ticketing's `POST /v1/tickets/{ticketId}/unmerge` (`{}` restores every ticket merged into it, `{"sourceIds": [...]}` the ones named).
         */
        post: operations["unmergeTickets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/customer": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        /**
         * The platform's profile of the ticket's customer
         * @description Reads the ticket (ticketing checks the agent's rights), then relays auth's `GET /v1/accounts/{accountId}/users/{screenName}` for the ticket's account and customer (`data` is the platform's user: name, screen_name, description, location, followers_count...). A profile is kept five minutes. A ticket without a customer on the platform: 404 `no_customer_profile`.
         */
        get: operations["getTicketCustomer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/order": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Link an order (a tracking task) to a ticket
         * @description Relays ticketing's `PUT /v1/tickets/{ticketId}/order`.
         */
        put: operations["linkOrder"];
        post?: never;
        /**
         * Unlink a ticket's order
         * @description Relays ticketing's `DELETE /v1/tickets/{ticketId}/order`.
         */
        delete: operations["unlinkOrder"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tickets/{ticketId}/order/live": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        /**
         * The live map view of the ticket's linked order
         * @description Relays ticketing's `GET /v1/tickets/{ticketId}/order/live`: the live view of the order linked to the ticket, checked against the agent's rights.
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
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ticketing's live events, relayed
         * @description Server-sent events from ticketing's `GET /v1/events`, opened with the agent's session (ticketing sends what the agent may see and ends the stream when the session ends, and so does this one); a launch session hears only of its ticket. 501 `events_unavailable` when ticketing has no stream: the page polls.
         */
        get: operations["events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The web application */
        get: operations["webHome"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The sign-in page */
        get: operations["webSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The accounts page */
        get: operations["webAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agents page (an admin's; anyone else sees who manages agents) */
        get: operations["webAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The usage page (an admin's) */
        get: operations["webUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The inbox page */
        get: operations["webInbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tickets/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        /** The ticket page */
        get: operations["webTicket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/embed/tickets/{ticketId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        /** A ticket's page embedded in the CRM */
        get: operations["webEmbeddedTicket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        /** A file of the built web application */
        get: operations["webAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the process runs */
        get: operations["live"];
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
        /** Whether the console can serve its screens */
        get: operations["ready"];
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
        /** Prometheus metrics */
        get: operations["metrics"];
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
        get: operations["openApiDocument"];
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
        get: operations["docsPage"];
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
        Id: string;
        /** @description The web application's settings. */
        Settings: {
            /** @description TILE_URL: the map tiles' URL template; empty: a plain background. */
            tileUrl: string;
            tileAttribution: string;
            /** @description How often the open map refreshes. */
            mapRefreshMs: number;
            /** @description How often the page reads again when ticketing has no event stream. */
            pollIntervalMs: number;
        };
        SessionInfo: {
            /** @description Who is signed in, by name: the agent's display name (or the credential's, or the launch link's). */
            agent: string;
            /** @description Who is signed in, by id: the principal ticketing records on what the agent does (null for a cookie made before it was kept). */
            agentId: string | null;
            scopes: string[];
            /** @description The accounts the agent may see; null for every account. */
            accountIds: string[] | null;
            /** @description The one ticket a launch session may see. */
            ticketId: string | null;
            /** @description Send it as `x-csrf-token` with every write. */
            csrfToken: string;
            /** Format: date-time */
            expiresAt: string;
            settings: components["schemas"]["Settings"];
        };
        /** @description One connected account as the configuration page lists it, merged from auth and ticketing. */
        AccountView: {
            accountId: string;
            screenName: string | null;
            name: string | null;
            /** @description connected, needs_reconnect, revoked, disconnected, webhook_invalid or unknown. */
            state: string;
            stateReason: string | null;
            /** @description Masked. */
            consumerKey: string | null;
            /** @description Masked. */
            accessToken: string | null;
            configured: boolean;
            pageName: string | null;
            /**
             * @description How auth signs the account's calls; null when auth does not know the account.
             * @enum {string|null}
             */
            protocol: "oauth1" | "oauth2" | null;
            /** @description ticketing's silence alarm: the account usually gets deliveries and has had none since `silentSince` (noticed at `detectedAt`); null while it delivers. */
            silence: null | {
                silentSince: string;
                detectedAt: string;
            };
        };
        /** @description The platform's user in its v1.1 shape (the fields the sidebar shows; others pass through). */
        PlatformUser: {
            name?: string;
            screen_name?: string;
            description?: string | null;
            location?: string | null;
            followers_count?: number;
            verified?: boolean;
            created_at?: string;
            profile_image_url_https?: string | null;
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "not_ready";
            checks: {
                [key: string]: boolean;
            };
        };
        Error: {
            error: {
                code: string;
                /** @description What to fix; a refused request names every bad field. */
                message: string;
                /** @description A request this document refuses lists each problem here. */
                fields?: {
                    /** @enum {string} */
                    in: "path" | "query" | "header" | "cookie" | "body";
                    field: string;
                    message: string;
                }[];
            };
        };
    };
    responses: {
        /** @description `invalid_parameter` (a path or query problem) or `invalid_request` (a body): the message names every bad field and `error.fields` lists them. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `not_signed_in`: no session, or one that expired; `session_ended`: a service no longer accepts the session (signed out, revoked, expired) and the cookie is cleared. */
        NotSignedIn: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `too_many_failures` (sign-in failures from this address) or `rate_limited` (the credential's rate limit): try again after Retry-After seconds. */
        TooMany: {
            headers: {
                /** @description Seconds to wait. */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `csrf_failed` (a write without the session's CSRF token) or `outside_launch_scope` (a launch session reaches its own ticket only). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `unsupported_media_type`: send a JSON body (content-type: application/json). */
        NotJson: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `internal`: a failure on our side; the details are in the log. */
        Internal: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `upstream_unavailable`: the service the console calls could not be reached. */
        UpstreamUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `upstream_timeout`: the service the console calls did not answer within UPSTREAM_TIMEOUT_MS. */
        UpstreamTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The called service's answer, relayed (its status, JSON body and Retry-After; a refusal's `error` keeps its code, message and fields, and a 500 of the service is a 502); its own document describes it. */
        Relayed: {
            headers: {
                /** @description Relayed when the service sent it. */
                "Retry-After"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": Record<string, never>;
            };
        };
        /** @description The web application's page; it routes in the browser. */
        Page: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/html": string;
            };
        };
        /** @description `web_not_built`: the web application is not built (`pnpm --filter @crm/console build:web`). */
        WebNotBuilt: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        TicketId: components["schemas"]["Id"];
        PageId: components["schemas"]["Id"];
        AgentId: string;
        TeamId: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signed-in session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionInfo"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                } | {
                    /** @description Printable ASCII, at most 512 characters (checked by the route, which says so in words). */
                    token: string;
                };
            };
        };
        responses: {
            /** @description Signed in; the session cookie is set. */
            201: {
                headers: {
                    /** @description `console_session`, httpOnly. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        signedIn: true;
                    };
                };
            };
            /** @description `invalid_sign_in`: the email or password is empty; `invalid_token`: `token` is not a string of 1-512 printable ASCII characters. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `invalid_credential`: auth does not accept the email and password ("the email or password is not right", whichever it was), or the credential (unknown, revoked, or a session token). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["NotJson"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out; the session is ended and the cookie cleared. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
        };
    };
    createLaunchLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ticketId: components["schemas"]["Id"];
                    /** @description Who opens the link, as the CRM names its user. */
                    agent?: {
                        /** @description The CRM's own id of the person. */
                        externalId?: string;
                        email?: string;
                        displayName?: string;
                    };
                };
            };
        };
        responses: {
            /** @description The link. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        url: string;
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            /** @description `invalid_launch`: `ticketId` is not a ticket id. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized`: no CRM token, or an unknown one. */
            401: {
                headers: {
                    /** @description Bearer. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
        };
    };
    openLaunchLink: {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A session scoped to the ticket is set; on to `/embed/tickets/{ticketId}`. */
            303: {
                headers: {
                    /** @description The embedded ticket view. */
                    Location?: string;
                    /** @description `console_session`, httpOnly. */
                    "Set-Cookie"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            /** @description A page in plain words (a person opened the link): it is not valid, has expired or was used already; open the ticket again from the CRM. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A page in plain words: auth refuses sessions for a moment; open the ticket again shortly. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: components["responses"]["Internal"];
            /** @description A page in plain words: auth could not open a session; open the ticket again shortly. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A page in plain words, as 502. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
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
            /** @description Every account the agent may see. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AccountView"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    startConnection: {
        parameters: {
            query?: {
                /** @description `oauth2`: OAuth 2.0 Authorization Code with PKCE (the platform's newer API; the browser goes to its OAuth 2.0 consent page); `oauth1`: three-legged OAuth 1.0a. Any other value: 400 `invalid_parameter` naming `query.protocol`. */
                protocol?: "oauth1" | "oauth2";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    getPartnerConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    putPartnerConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    testRoutes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    testOrderReferences: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    listSearchQueryStates: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                pageId: components["parameters"]["PageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    listTickets: {
        parameters: {
            query?: {
                accountId?: string;
                queue?: string;
                folder?: string;
                /** @description One customer's tickets (a ticket's `contact.id`). */
                contactId?: string;
                status?: string;
                assignee?: string;
                priority?: string;
                tag?: string;
                breached?: string;
                order?: string;
                q?: string;
                cursor?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    countTickets: {
        parameters: {
            query?: {
                accountId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    getTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    changeTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    announcePresence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    listAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    changeAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    resetAgentPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: components["parameters"]["AgentId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    changeOwnPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    listTeams: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    saveTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                teamId: components["parameters"]["TeamId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    usage: {
        parameters: {
            query?: {
                /** @description One account's usage; none for every account the agent may see. */
                accountId?: components["schemas"]["Id"];
                /** @description The first day (YYYY-MM-DD, UTC). */
                from?: string;
                /** @description The last day (YYYY-MM-DD, UTC). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    usageCsv: {
        parameters: {
            query?: {
                /** @description One account's usage; none for every account the agent may see. */
                accountId?: components["schemas"]["Id"];
                /** @description The first day (YYYY-MM-DD, UTC). */
                from?: string;
                /** @description The last day (YYYY-MM-DD, UTC). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage, one line per account, day and kind of call. */
            200: {
                headers: {
                    /** @description attachment, with a file name */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    getBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    saveBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    removeBudget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: components["schemas"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    appStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    checkCredit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    replyToTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description One per composed message, kept across retries, so a reply is sent once. */
                "Idempotency-Key"?: string;
            };
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    uploadReplyImage: {
        parameters: {
            query?: never;
            header?: {
                /** @description One per chosen image, so a retried upload uploads it once. */
                "Idempotency-Key"?: string;
            };
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The image, base64-encoded (auth checks its kind and size). */
                    media: string;
                };
            };
        };
        responses: {
            /** @description The image is on the platform, as the ticket's account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description What a DM reply names as attachment.mediaId, within 24 hours. */
                        mediaId: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    addNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    mergeTickets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    actOnTicket: {
        parameters: {
            query?: never;
            header?: {
                /** @description One per click, kept across retries, so an action is done once. */
                "Idempotency-Key"?: string;
            };
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    unmergeTickets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    getTicketCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description auth's answer to `read_user`, relayed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PlatformUser"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    linkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            415: components["responses"]["NotJson"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    unlinkOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    getOrderLiveView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            502: components["responses"]["UpstreamUnavailable"];
            504: components["responses"]["UpstreamTimeout"];
            default: components["responses"]["Relayed"];
        };
    };
    events: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["NotSignedIn"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            /** @description `events_unavailable`: ticketing has no event stream; poll instead. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            502: components["responses"]["UpstreamUnavailable"];
        };
    };
    webHome: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webInbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webEmbeddedTicket: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                ticketId: components["parameters"]["TicketId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            503: components["responses"]["WebNotBuilt"];
        };
    };
    webAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (scripts, styles, images), cached for an hour. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description `not_found`: no such file. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    live: {
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
                        /** @constant */
                        status: "live";
                    };
                };
            };
            400: components["responses"]["BadRequest"];
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ticketing answers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description Not ready; `checks` says what is missing. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process's and the service's metrics, in Prometheus' text format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
        };
    };
    openApiDocument: {
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
            400: components["responses"]["BadRequest"];
        };
    };
    docsPage: {
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
            400: components["responses"]["BadRequest"];
        };
    };
}

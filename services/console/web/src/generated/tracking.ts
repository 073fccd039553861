/* Generated from services/tracking/openapi.yaml by `pnpm --filter @crm/console generate:api`: do not edit. */

export interface paths {
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
        /** Whether the service can answer */
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
    "/v1/clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
            };
            cookie?: never;
        };
        /** A client's settings, the key masked */
        get: operations["getClient"];
        /**
         * Turn tracking on or off for a client, with its provider API key
         * @description Creates or replaces the client's settings. `apiKey` is required for a new client and kept when omitted on an update. The key is sealed at rest and only ever shown masked. Cached task data of the client is dropped.
         */
        put: operations["putClient"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a task (idempotent)
         * @description Sent to the provider as an idempotent create (by default `PUT /v1/client/{clientId}/mpmdtask/{taskId}`) under the caller's `taskId`, else an id derived from `sourceOrderId`; one of the two is required. Repeating a create answers 200 with `created: false` and makes no second task. Never retried by tracking itself.
         */
        post: operations["createTask"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}/tasks/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
                /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                taskId: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        /** The provider's task record */
        get: operations["getTask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}/tasks/{taskId}/live": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
                /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                taskId: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        /** The live map view of an order */
        get: operations["getLiveView"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}/tasks/{taskId}/followers/{follower}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
                /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                taskId: components["parameters"]["TaskId"];
                /** @description The follower's id, opaque to tracking (a ticket id): 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                follower: components["parameters"]["Follower"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Follow a task for a follower (a ticket)
         * @description Idempotent. The client must be enabled and the provider must know the task. Each change of the task is then announced once on the broker's `tracking.events` (docs/asyncapi.yaml), naming its followers, until it is delivered, failed or cancelled.
         */
        put: operations["followTask"];
        post?: never;
        /**
         * Stop following a task for a follower
         * @description Idempotent. A task with no follower left is no longer watched.
         */
        delete: operations["unfollowTask"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/provider/clients/{clientId}/task-pushes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A task record the provider pushes on a change
         * @description For the provider, not the CRM: no bearer token, the signature is the proof. `x-provider-signature: sha256=<hex HMAC-SHA256 of the raw body>` with the client's `pushSecret`, checked in constant time. A followed task's record is compared as a poll's is (one event per change, whichever sees it first); any other task is ignored (202 too).
         */
        post: operations["takeTaskPush"];
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
        IncludeName: string;
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
                /** @description A refused request (400) lists each problem here; `in` is absent for a task seed's own checks. */
                fields?: {
                    /** @enum {string} */
                    in?: "path" | "query" | "header" | "cookie" | "body";
                    /** @example assignedUser.userId */
                    field: string;
                    /** @example is required */
                    message: string;
                }[];
            };
        };
        Client: {
            clientId: string;
            enabled: boolean;
            /**
             * @description Masked
             * @example loca…-key
             */
            apiKey: string;
            include: components["schemas"]["IncludeName"][];
            /** @description A push secret is set: the provider's signed task pushes are taken. */
            pushes: boolean;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Following: {
            clientId: string;
            taskId: string;
            follower: string;
            /** @description Every follower of the task now (empty: no longer followed). */
            followers: string[];
        };
        /** @description Fields beyond these pass through to the provider unchanged. */
        TaskSeed: {
            /** @description Chosen by the caller; required when sourceOrderId is not given. */
            taskId?: string;
            assignedUser: {
                carrierClientId: string;
                userId: string;
            };
            sourceOrderId?: string;
            orderDetail?: {
                lineItems?: {
                    name: string;
                    quantity?: number;
                    id?: string;
                    price?: {
                        amount?: number;
                        currency?: string;
                        symbol?: string;
                    };
                    imageUrl?: string;
                }[];
            };
        };
        CreateResult: {
            taskId: string;
            created: boolean;
            task: Record<string, never>;
        };
        /** @description How old the provider data behind the answer is. `stale` when the provider failed and the last good record was served. */
        Freshness: {
            /** Format: date-time */
            fetchedAt: string;
            ageSeconds: number;
            stale: boolean;
            staleReason: string | null;
        };
        LiveView: {
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
            freshness: components["schemas"]["Freshness"];
        };
    };
    responses: {
        /** @description `invalid_parameter` (a path, query or header problem), `invalid_client` (settings) or `invalid_task` (a task seed): the message names every bad field and `error.fields` lists them; `invalid_request` outside /v1. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `unauthorized`: no bearer token, or one that is unknown or revoked. */
        Unauthorized: {
            headers: {
                /** @description Bearer. */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `missing_scope`: the credential lacks the scope named in the message (`x-required-scope`); `client_disabled`: the CRM turned tracking off for the client. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `client_not_found` (tracking was never set up for the client, or the credential may not see it) or `task_not_found` (the provider has no such task). */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `rate_limited` (the credential used its API_RATE_LIMIT_PER_MINUTE) or `too_many_failures` (this address failed to authenticate AUTH_FAILURES_PER_MINUTE times); wait Retry-After seconds. */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait. */
                "Retry-After"?: number;
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
        /** @description `auth_unavailable` (auth could not check the credential), `provider_unavailable` (network error or 5xx after the retries, no usable stale record) or `circuit_open` (the client's breaker is open). */
        Unavailable: {
            headers: {
                /** @description Seconds to wait, when known. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `provider_rejected`: the provider refused the request (a 4xx other than 401/403/404). */
        ProviderRejected: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `provider_auth_failed`: the provider refused the client's API key; check it with PUT /v1/clients/{clientId}. */
        ProviderAuthFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `provider_timeout`: every attempt timed out, and no usable stale record. */
        ProviderTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
        ClientId: string;
        /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
        TaskId: string;
        /** @description The follower's id, opaque to tracking (a ticket id): 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
        Follower: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
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
            /** @description Broker connected and database reachable. */
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
            /** @description The process's and the service's metrics (task cache, breakers, ...), in Prometheus' text format. */
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
    getClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The client */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Client"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    putClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled: boolean;
                    apiKey?: string;
                    /** @description Extra field groups always asked of the provider for this client. */
                    include?: components["schemas"]["IncludeName"][];
                    /** @description The secret the provider signs this client's task pushes with (sealed at rest, never shown); kept when omitted. */
                    pushSecret?: string;
                };
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Client"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TaskSeed"];
            };
        };
        responses: {
            /** @description The task existed already */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateResult"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ProviderRejected"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            502: components["responses"]["ProviderAuthFailed"];
            503: components["responses"]["Unavailable"];
            504: components["responses"]["ProviderTimeout"];
        };
    };
    getTask: {
        parameters: {
            query?: {
                /** @description Extra field groups, comma-separated, besides the client's (at most 20 names, each `^[A-Za-z][A-Za-z0-9_.-]{0,63}$`); sent in the provider's configured parameter. Given once. */
                include?: string;
            };
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
                /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                taskId: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, with how fresh it is */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        clientId: string;
                        taskId: string;
                        /** @description The provider's task record as it answered it. */
                        task: Record<string, never>;
                        freshness: components["schemas"]["Freshness"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ProviderRejected"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            502: components["responses"]["ProviderAuthFailed"];
            503: components["responses"]["Unavailable"];
            504: components["responses"]["ProviderTimeout"];
        };
    };
    getLiveView: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
                /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                taskId: components["parameters"]["TaskId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The view */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LiveView"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ProviderRejected"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            502: components["responses"]["ProviderAuthFailed"];
            503: components["responses"]["Unavailable"];
            504: components["responses"]["ProviderTimeout"];
        };
    };
    followTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
                /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                taskId: components["parameters"]["TaskId"];
                /** @description The follower's id, opaque to tracking (a ticket id): 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                follower: components["parameters"]["Follower"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The task's followers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Following"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["ProviderRejected"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            502: components["responses"]["ProviderAuthFailed"];
            503: components["responses"]["Unavailable"];
            504: components["responses"]["ProviderTimeout"];
        };
    };
    unfollowTask: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
                /** @description 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                taskId: components["parameters"]["TaskId"];
                /** @description The follower's id, opaque to tracking (a ticket id): 1-128 of `A-Z a-z 0-9 . _ : -`, starting with a letter or digit. */
                follower: components["parameters"]["Follower"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The followers left */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Following"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    takeTaskPush: {
        parameters: {
            query?: never;
            header?: {
                "x-provider-signature"?: string;
            };
            path: {
                /** @description 1-64 of `A-Z a-z 0-9 . _ -`, starting with a letter or digit (never a dot segment: ids are segments of the provider's paths). */
                clientId: components["parameters"]["ClientId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Taken; `followed` says whether the task is followed (else it was ignored). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        accepted: true;
                        followed: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            /** @description `invalid_signature`: the signature does not match the body, or no push secret is set for the (enabled) client. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
}

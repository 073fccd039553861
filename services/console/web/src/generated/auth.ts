/* Generated from services/auth/openapi.yaml by `pnpm --filter @crm/console generate:api`: do not edit. */

export interface paths {
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process runs */
        get: operations["health_live"];
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
        /** Broker connected and database reachable */
        get: operations["health_ready"];
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
        /** Prometheus metrics of the process */
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
        /** This document, as JSON */
        get: operations["openapi_document"];
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
        /** A page that renders this document */
        get: operations["docs_page"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start connecting an account (OAuth 1.0a request token with our callback, or OAuth 2.0 Authorization Code with PKCE) */
        post: operations["start_connection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One-time start link of a connection (no CRM token); binds the opening browser with a cookie */
        get: operations["open_start_link"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the platform sends the browser back (no CRM token) */
        get: operations["oauth_callback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/connected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The page after a connection when no CRM_CONNECTED_URL is set (no CRM token) */
        get: operations["connected_page"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a session for the console (a sign-in or a launch link); a session may not issue one
         * @description Token exchange: the caller (the console, with its own credential holding `sessions:issue`; a session gets 403 `missing_scope`) is the actor, `subjectToken` the agent's API credential or a CRM_API_TOKENS bootstrap token. A sign-in's session carries the subject's grant (a credential's current scopes and limits, read again at every check, so revoking the credential ends its sessions; a bootstrap token's admin grant); a launch link's carries tickets:read and tickets:write for one ticket only. `ttlSeconds` is 60..SESSION_MAX_TTL_SECONDS; a sign-in defaults to the maximum, a launch link to 1800 (at most the maximum). Failed sign-ins are counted per `clientAddress` (the browser's address as the console sees it): after AUTH_FAILURES_PER_MINUTE in a minute that address gets 429 `too_many_failures`, before its token is looked at.
         */
        post: operations["issue_session"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Sign out: end the session whose token the request carries
         * @description The session ends at once; auth announces `auth.credential.revoked.v1 {id: <sessionId>}` on `access.events`, so every service forgets its checks of it and closes its open streams. Any session may end itself (a launch link too). Ending an ended session is 401: it is no longer a valid token.
         */
        delete: operations["end_session"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agents (for assignee pickers); never a password or its hash */
        get: operations["list_agents"];
        put?: never;
        /**
         * Create an agent (an admin only)
         * @description The password (12 to 256 characters) is kept as a scrypt hash with its own salt; without one the agent signs in only through the CRM's launch link.
         */
        post: operations["create_agent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/{agentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
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
         * @description A field left out stays as it is; `teams` replaces the agent's teams. `disabled: true` deactivates the agent: it cannot sign in, and its sessions end at once (announced on access.events). The last active admin can be neither demoted nor deactivated (409).
         */
        patch: operations["change_agent"];
        trace?: never;
    };
    "/v1/agents/{agentId}/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a new password for an agent (an admin only) */
        put: operations["reset_agent_password"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * The signed-in agent changes its own password, giving the current one
         * @description Any agent signed in with its email and password; a credential, a bootstrap token or a launch session has no password here (403).
         */
        put: operations["change_own_password"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The teams and their agents (for team pickers) */
        get: operations["list_teams"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/teams/{teamId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Create or rename a team (an admin only) */
        put: operations["save_team"];
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
        /** Connected accounts the credential may see (tokens masked) */
        get: operations["list_accounts"];
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
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        /** One connected account (token masked) */
        get: operations["get_account"];
        put?: never;
        post?: never;
        /** Unsubscribe, forget the credentials, publish account.disconnected */
        delete: operations["remove_account"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        get?: never;
        /** Import a token pair made elsewhere (checked with GET /2/users/me first) */
        put: operations["import_credentials"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        /** Is the account subscribed (its OAuth 1.0a user context; an OAuth 2.0 account gets 409 `needs_oauth1`) */
        get: operations["get_subscription"];
        /** Subscribe the account (its OAuth 1.0a user context; an OAuth 2.0 account gets 409 `needs_oauth1`, and 409 `no_webhook` before a webhook is registered) */
        put: operations["subscribe_account"];
        post?: never;
        /** Unsubscribe the account */
        delete: operations["unsubscribe_account"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Subscribed accounts */
        get: operations["list_subscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Subscription counts */
        get: operations["count_subscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the accounts' platform calls cost, per account, UTC day and rate-card kind
         * @description Every platform call auth makes for an account is priced from the rate card (`GET /v1/usage/rate-card`) when it succeeds with data: a read per resource answered (a resource the account was charged for that UTC day is not charged again), a write per request. A credential limited to some accounts sees only theirs.
         */
        get: operations["get_usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same usage as CSV (header `accountId,date,kind,units,amount`) */
        get: operations["get_usage_csv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage/rate-card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The prices auth meters its platform calls with (the built-in card with PLATFORM_RATE_CARD's overrides) */
        get: operations["get_rate_card"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/budget": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        /** The account's monthly budget and this month's spend */
        get: operations["get_budget"];
        /**
         * Set the account's monthly budget (takes effect at once)
         * @description At `warnAt` of the limit auth announces `account.budget_warning`; at the limit `account.budget_exhausted` (each once per UTC month) and refuses the account's optional calls (search polling, sidebar profile and timeline reads, list reads) with `budget_exhausted`; replies, DMs and the reads that answer a customer go on unless `stopEssential`. Raising the limit above the spend resumes optional calls at once and re-arms the announcements.
         */
        put: operations["set_budget"];
        post?: never;
        /** Remove the account's budget (its calls are no longer limited) */
        delete: operations["remove_budget"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's webhooks */
        get: operations["list_webhooks"];
        put?: never;
        /** Register PUBLIC_WEBHOOK_URL for SOCIAL_ENV_NAME (owner's user context; the platform runs the CRC first) */
        post: operations["register_webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the periodic check now (re-run the CRC of invalid webhooks; publish webhook.invalid) */
        post: operations["check_webhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}/crc": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform webhook id */
                webhookId: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-run the CRC (owner's user context) */
        post: operations["recheck_webhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform webhook id */
                webhookId: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete the webhook (owner's user context) */
        delete: operations["delete_webhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/app/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the app is out of credit on the platform (for a banner), since when, and how many commands are held */
        get: operations["app_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/app/credit-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check now whether credit is back (after credits were added), then send the held commands, in order
         * @description While the app is out of credit, asks the platform a cheap read of the app's own; when it answers, the episode ends (`app.credit_restored` on account.events) and the held commands are sent in the order they arrived before this answers. The periodic probe (CREDIT_PROBE_INTERVAL_MS) does the same on its own.
         */
        post: operations["check_app_credit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_home_timeline (read)
         * @description Platform: v2 `GET /2/users/{accountId}/timelines/reverse_chronological`, its answer given in the v1.1 shape.
         */
        get: operations["read_home_timeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/users/{user}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_user_timeline (read)
         * @description Platform: v2 `GET /2/users/{userId}/tweets`, its answer given in the v1.1 shape; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        get: operations["read_user_timeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_user (read)
         * @description Platform: v2 `GET /2/users/{userId}`, its answer given in the v1.1 shape.
         */
        get: operations["read_user"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_profile (read)
         * @description Platform: v2 `GET /2/users/me`, its answer given in the v1.1 shape.
         */
        get: operations["read_profile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * update_profile (write)
         * @description Platform: v1.1 `POST /1.1/account/update_profile.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        patch: operations["update_profile"];
        trace?: never;
    };
    "/v1/accounts/{accountId}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_settings (read)
         * @description Platform: v1.1 `GET /1.1/account/settings.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        get: operations["read_settings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * update_settings (write)
         * @description Platform: v1.1 `POST /1.1/account/settings.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        patch: operations["update_settings"];
        trace?: never;
    };
    "/v1/accounts/{accountId}/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * search_posts (read)
         * @description The platform's search of recent posts as the account, newest first (resultType can only be recent); data is {statuses, search_metadata}, v1.1's shape. Platform: v2 `GET /2/tweets/search/recent`, its answer given in the v1.1 shape.
         */
        get: operations["search_posts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/following": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_following (read)
         * @description Platform: v2 `GET /2/users/{accountId}/following`, its answer given in the v1.1 shape.
         */
        get: operations["read_following"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/following/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * follow (write)
         * @description Platform: v2 `POST /2/users/{accountId}/following`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        put: operations["follow"];
        post?: never;
        /**
         * unfollow (write)
         * @description Platform: v2 `DELETE /2/users/{accountId}/following/{userId}`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        delete: operations["unfollow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * post (write)
         * @description Platform: v2 `POST /2/tweets`.
         */
        post: operations["post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/posts/{postId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * delete_post (write)
         * @description Platform: v2 `DELETE /2/tweets/{postId}`.
         */
        delete: operations["delete_post"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/posts/{postId}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * reply (write)
         * @description Platform: v2 `POST /2/tweets`.
         */
        post: operations["reply"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/posts/{postId}/reposts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * repost (write)
         * @description Platform: v2 `POST /2/users/{accountId}/retweets`.
         */
        post: operations["repost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/posts/{postId}/like": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * like (write)
         * @description Platform: v2 `POST /2/users/{accountId}/likes`.
         */
        put: operations["like"];
        post?: never;
        /**
         * unlike (write)
         * @description Platform: v2 `DELETE /2/users/{accountId}/likes/{postId}`.
         */
        delete: operations["unlike"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/lists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_lists (read)
         * @description Platform: v2 `GET /2/users/{accountId}/owned_lists`, its answer given in the v1.1 shape.
         */
        get: operations["read_lists"];
        put?: never;
        /**
         * create_list (write)
         * @description Platform: v2 `POST /2/lists`.
         */
        post: operations["create_list"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/lists/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_subscribed_lists (read)
         * @description Platform: v2 `GET /2/users/{accountId}/followed_lists`, its answer given in the v1.1 shape.
         */
        get: operations["read_subscribed_lists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/lists/{listId}/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_list_posts (read)
         * @description Platform: v2 `GET /2/lists/{listId}/tweets`, its answer given in the v1.1 shape.
         */
        get: operations["read_list_posts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/lists/{listId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * delete_list (write)
         * @description Platform: v2 `DELETE /2/lists/{listId}`.
         */
        delete: operations["delete_list"];
        options?: never;
        head?: never;
        /**
         * update_list (write)
         * @description Platform: v2 `PUT /2/lists/{listId}`.
         */
        patch: operations["update_list"];
        trace?: never;
    };
    "/v1/accounts/{accountId}/lists/{listId}/members/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * add_list_member (write)
         * @description Platform: v2 `POST /2/lists/{listId}/members`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        put: operations["add_list_member"];
        post?: never;
        /**
         * remove_list_member (write)
         * @description Platform: v2 `DELETE /2/lists/{listId}/members/{userId}`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        delete: operations["remove_list_member"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_collections (read)
         * @description Platform: v1.1 `GET /1.1/collections/list.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        get: operations["read_collections"];
        put?: never;
        /**
         * create_collection (write)
         * @description Platform: v1.1 `POST /1.1/collections/create.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        post: operations["create_collection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/collections/{collectionId}/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_collection_entries (read)
         * @description Platform: v1.1 `GET /1.1/collections/entries.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        get: operations["read_collection_entries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/collections/{collectionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * delete_collection (write)
         * @description Platform: v1.1 `POST /1.1/collections/destroy.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        delete: operations["delete_collection"];
        options?: never;
        head?: never;
        /**
         * update_collection (write)
         * @description Platform: v1.1 `POST /1.1/collections/update.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        patch: operations["update_collection"];
        trace?: never;
    };
    "/v1/accounts/{accountId}/collections/{collectionId}/entries/{postId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * add_collection_entry (write)
         * @description Platform: v1.1 `POST /1.1/collections/entries/add.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        put: operations["add_collection_entry"];
        post?: never;
        /**
         * remove_collection_entry (write)
         * @description Platform: v1.1 `POST /1.1/collections/entries/remove.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        delete: operations["remove_collection_entry"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/mutes/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * mute (write)
         * @description Platform: v2 `POST /2/users/{accountId}/muting`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        put: operations["mute"];
        post?: never;
        /**
         * unmute (write)
         * @description Platform: v2 `DELETE /2/users/{accountId}/muting/{userId}`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        delete: operations["unmute"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/blocks/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * block (write)
         * @description Platform: v2 `POST /2/users/{accountId}/blocking`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        put: operations["block"];
        post?: never;
        /**
         * unblock (write)
         * @description Platform: v2 `DELETE /2/users/{accountId}/blocking/{userId}`; a user named by screen name is first looked up with `GET /2/users/by/username/{username}`.
         */
        delete: operations["unblock"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * report (write)
         * @description Platform: v1.1 `POST /1.1/users/report_spam.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        post: operations["report"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * upload_media (write)
         * @description Uploads an image for a DM (JPEG, PNG, WEBP or GIF, at most 5 MB; 415 for another kind of file, 413 for a larger one). platformId is the media id send_dm takes as mediaId, for 24 hours. Platform: v2 `POST /2/media/upload`.
         */
        post: operations["upload_media"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/direct-messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_dms (read)
         * @description Platform: v2 `GET /2/dm_events`, its answer given in the v1.1 shape.
         */
        get: operations["read_dms"];
        put?: never;
        /**
         * send_dm (write)
         * @description Platform: v2 `POST /2/dm_conversations/with/{recipientId}/messages`.
         */
        post: operations["send_dm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/direct-messages/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * mark_dm_read (write)
         * @description Platform: v1.1 `POST /1.1/direct_messages/mark_read.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        post: operations["mark_dm_read"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/direct-messages/typing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * indicate_typing (write)
         * @description Platform: v1.1 `POST /1.1/direct_messages/indicate_typing.json`. OAuth 1.0a accounts only (an OAuth 2.0 account gets 409 `needs_oauth1`).
         */
        post: operations["indicate_typing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{accountId}/direct-messages/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * read_dm (read)
         * @description Platform: v2 `GET /2/dm_events/{eventId}`, its answer given in the v1.1 shape.
         */
        get: operations["read_dm"];
        put?: never;
        post?: never;
        /**
         * delete_dm (write)
         * @description Platform: v2 `DELETE /2/dm_events/{eventId}`.
         */
        delete: operations["delete_dm"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description A line of the platform's rate card: `*_read` per resource, the others per request.
         * @enum {string}
         */
        UsageKind: "posts_read" | "users_read" | "dm_events_read" | "follows_read" | "lists_read" | "likes_read" | "mutes_read" | "blocks_read" | "post_create" | "post_create_with_url" | "dm_interaction_create" | "user_interaction_create" | "interaction_delete" | "content_manage" | "list_create" | "list_manage" | "privacy_update" | "mute_delete";
        UsageItem: {
            accountId: string;
            /**
             * Format: date
             * @description The UTC day.
             */
            date: string;
            kind: components["schemas"]["UsageKind"];
            /** @description Resources read (each once a day) or requests written. */
            units: number;
            /** @description Dollars. */
            amount: number;
        };
        Budget: {
            accountId: string;
            /** @description Dollars per UTC calendar month. */
            monthlyLimit: number;
            /** @description The fraction of the limit at which `account.budget_warning` is announced. */
            warnAt: number;
            /** @description At the limit every call is refused, not only the optional ones. */
            stopEssential: boolean;
            /** @description The UTC month `spent` is for. */
            month: string;
            /** @description Dollars the account's platform calls cost this month. */
            spent: number;
            /** @description The limit is reached: optional calls (every call with stopEssential) are refused with `budget_exhausted`. */
            exhausted: boolean;
        };
        AppStatus: {
            /** @description True from the platform's first 402 credits-depleted until a probe finds credit back. */
            outOfCredit: boolean;
            /**
             * Format: date-time
             * @description When the app ran out of credit; null when it is not.
             */
            since: string | null;
            /** @description Commands held, to be sent in order once credit is back. */
            heldCommands: number;
        };
        Error: {
            error: {
                code: string;
                message: string;
                /** @description A request this document refuses (400 `invalid_request`): every value that does not fit, where it is and what is wrong. */
                fields?: {
                    /** @enum {string} */
                    in: "path" | "query" | "header" | "cookie" | "body";
                    /**
                     * @example text
                     * @example items[0].name
                     */
                    field: string;
                    message: string;
                }[];
            };
        };
        Agent: {
            /** @description Also the principal id of its sessions: what ticketing records as `by` on what the agent does. */
            id: string;
            email: string;
            displayName: string;
            /**
             * @description admin: everything (scope admin); agent: tickets:read and tickets:write.
             * @enum {string}
             */
            role: "admin" | "agent";
            teams: string[];
            externalId: string | null;
            /** Format: date-time */
            createdAt: string;
            disabled: boolean;
        };
        Team: {
            id: string;
            name: string;
            agentIds: string[];
        };
        /** @description What the session carries, as every service's verification answers it. */
        SessionGrant: {
            /** @description The credential's id, the agent's id, `bootstrap-<n>`, or `launch-<sessionId>`: the principal in rate limits and audit logs. */
            id: string;
            name: string;
            scopes: ("tickets:read" | "tickets:write" | "accounts:manage" | "tracking:manage" | "sessions:issue" | "admin")[];
            /** @description The accounts it may see and act on; null for every account. */
            accountIds: string[] | null;
            /** @description The tracking clients it may see; null for every client. */
            trackingClientIds: string[] | null;
            /** @description A launch link's ticket; null for a sign-in. */
            ticketIds: string[] | null;
            sessionId: string;
        };
        Account: {
            accountId: string;
            screenName: string;
            name: string | null;
            envName: string;
            /** @description Masked like the token. */
            consumerKey: string;
            /** @example abcd…wxyz */
            accessTokenMasked: string;
            /**
             * @description revoked: the owner removed the app on the platform (`account.revoked`); auth has forgotten the token pair, and actions fail with account_not_connected until the account is connected again.
             * @enum {string}
             */
            status: "connected" | "needs_reconnect" | "revoked";
            statusReason: string | null;
            /** @enum {string} */
            via: "oauth" | "import";
            /**
             * @description How its calls are signed: an OAuth 1.0a token pair, or an OAuth 2.0 bearer access token auth refreshes.
             * @enum {string}
             */
            protocol: "oauth1" | "oauth2";
            /** @description OAuth 2.0: the scopes granted; null for OAuth 1.0a. */
            scopes: string[] | null;
            /** @description OAuth 2.0: the scopes auth asks for now that the account did not grant (it was connected with an older set; `account.scopes-outdated` announced it once): connect it again to grant them. [] otherwise. */
            missingScopes: string[];
            /**
             * Format: date-time
             * @description OAuth 2.0: when the current access token expires (auth refreshes it before); null for OAuth 1.0a.
             */
            accessTokenExpiresAt: string | null;
            /** Format: date-time */
            connectedAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        Webhook: {
            id: string;
            url: string;
            valid: boolean;
            createdAt: string | null;
        };
        WebhookOwner: {
            /** @description The app owner's connected account, whose user context the platform call takes (SOCIAL_APP_OWNER_ACCOUNT_ID when not given). */
            ownerAccountId?: string;
        };
        /** @description The input of update_profile (the social command's input schema). */
        input_update_profile: {
            name?: string;
            url?: string;
            location?: string;
            description?: string;
        };
        /** @description The input of update_settings (the social command's input schema). */
        input_update_settings: {
            lang?: string;
            timeZone?: string;
            sleepTimeEnabled?: boolean;
            startSleepTime?: number;
            endSleepTime?: number;
        };
        /** @description The input of post (the social command's input schema). */
        input_post: {
            text: string;
        };
        /** @description The input of reply without inReplyToPostId, which the path gives (the social command's input schema). */
        input_reply: {
            text: string;
        };
        /** @description The input of create_list (the social command's input schema). */
        input_create_list: {
            name: string;
            /** @enum {string} */
            mode?: "public" | "private";
            description?: string;
        };
        /** @description The input of update_list without listId, which the path gives (the social command's input schema). */
        input_update_list: {
            name?: string;
            /** @enum {string} */
            mode?: "public" | "private";
            description?: string;
        };
        /** @description The input of create_collection (the social command's input schema). */
        input_create_collection: {
            name: string;
            description?: string;
            /** @enum {string} */
            timelineOrder?: "curation_reverse_chron" | "tweet_chron" | "tweet_reverse_chron";
        };
        /** @description The input of update_collection without collectionId, which the path gives (the social command's input schema). */
        input_update_collection: {
            name?: string;
            description?: string;
        };
        /** @description The input of report (the social command's input schema). */
        input_report: {
            userId?: string;
            screenName?: string;
            block?: boolean;
        } & (unknown | unknown);
        /** @description The input of upload_media (the social command's input schema). */
        input_upload_media: {
            /** @description The image (JPEG, PNG, WEBP or GIF, at most 5 MB), base64-encoded. */
            media: string;
        };
        /** @description The input of send_dm (the social command's input schema). */
        input_send_dm: {
            recipientId: string;
            text?: string;
            mediaId?: string;
        } | unknown | unknown;
        /** @description The input of mark_dm_read (the social command's input schema). */
        input_mark_dm_read: {
            recipientId: string;
            lastReadEventId: string;
        };
        /** @description The input of indicate_typing (the social command's input schema). */
        input_indicate_typing: {
            recipientId: string;
        };
    };
    responses: {
        /** @description The process runs. */
        Live: {
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
        /** @description Ready when every check passed; 503 `not_ready` names what is missing in `checks`. */
        Readiness: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "ready" | "not_ready";
                    checks: {
                        [key: string]: boolean;
                    };
                };
            };
        };
        /** @description An HTML page for the person in the browser; nothing was stored or used up unless it says so. */
        Page: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/html": string;
            };
        };
        /** @description An HTML page: the link is unknown or incomplete, nothing stored (JSON `invalid_request` when a query parameter is malformed). */
        BadLink: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "text/html": string;
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `invalid_request` (a path, query, header or body value does not fit this document; the message names each, `fields` lists them), `invalid_input` (the action refused the input), `invalid_json`, `too_deep`, `invalid_account_id`, `invalid_webhook_id`, `invalid_idempotency_key`, `owner_unknown`, or `platform_rejected` (the platform answered 400). */
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
                /** @description Bearer */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `missing_scope`: the credential lacks the scope named in the message, e.g. "this credential lacks the scope tickets:write" (a session never holds sessions:issue); `outside_ticket_scope`: a launch session, limited to one ticket, reaches nothing of auth but its own sign-out; `budget_exhausted`: the account's monthly budget is spent and the call is optional spending (or the budget stops every call), the message names the budget; or `platform_rejected` when the platform refused the call as forbidden. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `not_found` (no such route or file), `account_not_connected` (auth holds no credentials for the account, or the credential may not see it), or `platform_rejected` when the platform does not know what was named. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `reconnect_needed` (the platform refused the account's token: connect it again), `needs_oauth1` (the action has only a v1.1 route, which takes OAuth 1.0a only, and the account is connected with OAuth 2.0), `idempotency_key_reused` (the key was used for another request), `command_in_progress` (the same key is being sent; Retry-After), `no_webhook` (no Account Activity webhook is registered to subscribe to), or `platform_rejected` (the platform answered 409). */
        Conflict: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `payload_too_large`: the body is larger than the limit. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `unsupported_media_type`: the body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `platform_rejected`: the platform refused the request (its code in the message). */
        Unprocessable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `rate_limited` (the credential used its API_RATE_LIMIT_PER_MINUTE, or the platform rate-limits the call), `usage_capped` (the platform's monthly usage cap for the app is used up: the message names the reset time when the platform gave one) or `too_many_failures` (this address failed to authenticate AUTH_FAILURES_PER_MINUTE times, or, at POST /v1/sessions, its clientAddress failed to sign in that often); wait Retry-After seconds. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `internal`: something failed on auth's side; the details are in its log, never in the answer. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `connection_failed`: the platform answered the connection step without what it needs. */
        BadGateway: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `auth_unavailable` (the credential could not be checked right now), `platform_unavailable` (the platform failed or could not be reached), `out_of_credit` (the app's prepaid credits on the platform are spent: add credits in the platform's developer console; reads and HTTP writes are refused until a probe finds credit back, broker commands are held and sent then; Retry-After says when to ask again), `credits_depleted` (a call of auth's own, such as registering a webhook, met spent credits), or `configuration_error` (the platform refuses the app's own credentials); Retry-After when trying again may help. */
        ServiceUnavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `platform_timeout` (a read got no answer in time) or `outcome_unknown` (a send broke off after it left: it may or may not have happened, and is not sent again). */
        GatewayTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The action succeeded. */
        ActionResult: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": {
                    /** @description Writes only: the command the write is recorded as, http:<principal id>:<account id>:<Idempotency-Key>. */
                    commandId?: string;
                    action: string;
                    accountId: string;
                    /** @enum {string} */
                    outcome: "succeeded";
                    /** @description The platform id of what a write made or acted on: the DM event id of send_dm, the post id of post, reply and repost (the new post) and of like, unlike and delete_post, the user id of follow, block, mute and their undoing, the list id of the list actions, the collection id of create_collection. */
                    platformId: string | null;
                    /** @description The platform's answer, as the platform gave it: a v1.1 object for reads and the writes without a v2 route, v2's `{data: {...}}` for the writes through v2 (each operation says which route it uses). */
                    data: unknown;
                    replayed: boolean;
                };
            };
        };
    };
    parameters: {
        /** @description The platform user id of a connected account */
        accountId: string;
        /** @description One account (digits); every account the credential may see when left out. */
        usageAccountId: string;
        /** @description The first UTC day (inclusive); the first day of this month by default. */
        usageFrom: string;
        /** @description The last UTC day (inclusive, at most 366 days after `from`); today by default. */
        usageTo: string;
        /** @description The platform webhook id */
        webhookId: string;
        /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
        idempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before trying again */
        RetryAfter: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health_live: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Live"];
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    health_ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Readiness"];
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Readiness"];
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
            /** @description The metrics in Prometheus' text format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    openapi_document: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    docs_page: {
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
            500: components["responses"]["InternalError"];
        };
    };
    start_connection: {
        parameters: {
            query?: {
                /** @description oauth2: the account is connected with OAuth 2.0 Authorization Code with PKCE (S256) and signs its calls with a bearer access token auth refreshes; oauth1 (the default, so callers without it are unchanged): three-legged OAuth 1.0a. A query parameter, so the request keeps having no body. */
                protocol?: "oauth1" | "oauth2";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open authorizeUrl, a one-time start link on auth, in the agent's browser; it binds that browser to the connection and goes on to the platform's authorize page. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        authorizeUrl: string;
                        /** Format: date-time */
                        expiresAt: string;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    open_start_link: {
        parameters: {
            query?: {
                /** @description The start link's secret; without it the person gets the page of an unknown link, not a JSON error. */
                link?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bound (Set-Cookie oauth_binding_<id>, httpOnly, SameSite=Lax); redirect to the platform's authorize page. */
            303: {
                headers: {
                    /** @description The platform's authorize page */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadLink"];
            409: components["responses"]["Page"];
            410: components["responses"]["Page"];
            500: components["responses"]["InternalError"];
        };
    };
    oauth_callback: {
        parameters: {
            query?: {
                oauth_token?: string;
                oauth_verifier?: string;
                /** @description Set by the platform when the user cancelled (OAuth 1.0a) */
                denied?: string;
                /** @description OAuth 2.0: names the connection (a callback with `state` is taken for OAuth 2.0) */
                state?: string;
                /** @description OAuth 2.0: the authorization code, exchanged with the connection's PKCE code_verifier */
                code?: string;
                /** @description OAuth 2.0: set by the platform when the user cancelled (`access_denied`) */
                error?: string;
                /** @description OAuth 2.0: what the platform says about `error` (not shown) */
                error_description?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connected; redirect to CRM_CONNECTED_URL (or /v1/oauth/connected) with accountId and screenName. */
            303: {
                headers: {
                    /** @description Where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadLink"];
            403: components["responses"]["Page"];
            409: components["responses"]["Page"];
            410: components["responses"]["Page"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["Page"];
        };
    };
    connected_page: {
        parameters: {
            query?: {
                accountId?: string;
                screenName?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Page"];
            400: components["responses"]["BadRequest"];
            500: components["responses"]["InternalError"];
        };
    };
    issue_session: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The agent's API credential `crm_...` or a bootstrap token. Anything but printable ASCII (0x21-0x7E), or over 512 characters, is 400 `invalid_token`; unknown, revoked or a session token 401 `invalid_credential`. */
                    subjectToken: string;
                    /** @description The browser's address as the console sees it; failed sign-ins are counted per address. */
                    clientAddress: string;
                    /** @description At most SESSION_MAX_TTL_SECONDS (default 28800), which is also the default. */
                    ttlSeconds?: number;
                } | {
                    email: string;
                    password: string;
                    /** @description The browser's address as the console sees it; failed sign-ins are counted per address. */
                    clientAddress: string;
                    /** @description At most SESSION_MAX_TTL_SECONDS (default 28800), which is also the default. */
                    ttlSeconds?: number;
                } | {
                    launch: {
                        /** @description The ticket (ticketing's id) the session may read and answer. */
                        ticketId: string;
                        /** @description The launch link's own id: a link opens one session, whichever console replica opens it (409 launch_link_used after that). */
                        linkId?: string;
                        /** @description The agent who opened the link, as the CRM names it: found by externalId (else email); one not known yet is created with the role agent and no password (it needs an email then). The session then acts as that agent (its id and name on the timeline). A disabled agent is 400 `invalid_launch_agent`. */
                        agent?: {
                            /** @description The CRM's own id of the person. */
                            externalId?: string;
                            email?: string;
                            displayName?: string;
                        };
                    };
                    /** @description Default 1800; at most SESSION_MAX_TTL_SECONDS. */
                    ttlSeconds?: number;
                };
            };
        };
        responses: {
            /** @description The session. The token is shown only now (auth keeps its sha256). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Sent as `Authorization: Bearer` to every service, which verifies it like any API token. */
                        token: string;
                        /** Format: date-time */
                        expiresAt: string;
                        grant: components["schemas"]["SessionGrant"];
                    };
                };
            };
            /** @description `invalid_request` (the body fits neither shape, or ttlSeconds is out of range) or `invalid_token` (the subject token holds characters no token has, or is too long: "the credential holds characters no credential has; paste it again"). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unauthorized` (the caller's own token is not valid) or `invalid_credential` (the subject token is unknown, revoked or a session; counted against clientAddress). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            403: components["responses"]["Forbidden"];
            /** @description `launch_link_used`: the launch link (`launch.linkId`) opened a session already. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    end_session: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `not_a_session`: the token is an API credential or a bootstrap token, not a session (a credential is revoked with the CLI). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_agents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every agent, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Agent"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    create_agent: {
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
                    displayName: string;
                    /**
                     * @default agent
                     * @enum {string}
                     */
                    role?: "admin" | "agent";
                    teams?: string[];
                    password?: string;
                    externalId?: string;
                };
            };
        };
        responses: {
            /** @description The agent. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description `invalid_agent` (each wrong field named, e.g. "password: choose a password of 12 to 256 characters") or `unknown_team`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `agent_exists`: the email or external id is taken. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    change_agent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    displayName?: string;
                    /** @enum {string} */
                    role?: "admin" | "agent";
                    teams?: string[];
                    disabled?: boolean;
                };
            };
        };
        responses: {
            /** @description The agent as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description `invalid_agent` (each wrong field named, and listed in `fields`) or `unknown_team`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `agent_not_found`: there is no such agent. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `last_active_admin`: the change would leave no active admin. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    reset_agent_password: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                };
            };
        };
        responses: {
            /** @description Set. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `invalid_agent`: the password is not 12 to 256 characters. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `agent_not_found`: there is no such agent. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    change_own_password: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Changed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `wrong_current_password`, or `invalid_agent`: the new password is not 12 to 256 characters. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            /** @description `not_an_agent`: the caller is not an agent signed in with a password. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_teams: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every team, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["Team"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    save_team: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                teamId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description The team. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Team"];
                };
            };
            /** @description `invalid_agent`: the id or name is not one. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_accounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The accounts. */
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
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_account: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
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
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    remove_account: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
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
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    import_credentials: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    accessToken: string;
                    accessTokenSecret: string;
                };
            };
        };
        responses: {
            /** @description Stored. */
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
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `invalid_credentials` or `account_mismatch`. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            502: components["responses"]["BadGateway"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    get_subscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscribed: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    subscribe_account: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Subscribed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        subscribed: true;
                        alreadySubscribed: boolean;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    unsubscribe_account: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unsubscribed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `account_not_connected`, or `not_subscribed`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    list_subscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        envName: string;
                        items: {
                            accountId: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    count_subscriptions: {
        parameters: {
            query?: never;
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
                    "application/json": {
                        all: number;
                        directMessages: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    get_usage: {
        parameters: {
            query?: {
                /** @description One account (digits); every account the credential may see when left out. */
                accountId?: components["parameters"]["usageAccountId"];
                /** @description The first UTC day (inclusive); the first day of this month by default. */
                from?: components["parameters"]["usageFrom"];
                /** @description The last UTC day (inclusive, at most 366 days after `from`); today by default. */
                to?: components["parameters"]["usageTo"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage, oldest day first, and its total in dollars. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["UsageItem"][];
                        /** @description Dollars: the sum of the items. */
                        total: number;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_usage_csv: {
        parameters: {
            query?: {
                /** @description One account (digits); every account the credential may see when left out. */
                accountId?: components["parameters"]["usageAccountId"];
                /** @description The first UTC day (inclusive); the first day of this month by default. */
                from?: components["parameters"]["usageFrom"];
                /** @description The last UTC day (inclusive, at most 366 days after `from`); today by default. */
                to?: components["parameters"]["usageTo"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One line per account, UTC day and kind, oldest day first; amount in dollars with six decimals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    get_rate_card: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every line of the card. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            kind: components["schemas"]["UsageKind"];
                            /** @description Dollars. */
                            price: number;
                            /**
                             * @description `resource`: a read, per resource answered; `request`: a write, per request.
                             * @enum {string}
                             */
                            per: "resource" | "request";
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    get_budget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The budget. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description `no_budget`: the account has no budget (its calls are not limited), or `account_not_connected` for an account the credential may not see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    set_budget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Dollars per UTC calendar month. */
                    monthlyLimit: number;
                    /**
                     * @description The fraction of the limit at which to warn.
                     * @default 0.8
                     */
                    warnAt?: number;
                    /**
                     * @description At the limit, refuse every call, essential ones too.
                     * @default false
                     */
                    stopEssential?: boolean;
                };
            };
        };
        responses: {
            /** @description The budget as set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    remove_budget: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
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
            /** @description `no_budget`, or `account_not_connected` for an account the credential may not see. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    list_webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        envName: string;
                        items: components["schemas"]["Webhook"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    register_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookOwner"];
            };
        };
        responses: {
            /** @description Registered. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            /** @description `platform_rejected` (e.g. the CRC failed, platform code 214). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    check_webhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checked: number;
                        invalid: {
                            envName: string;
                            webhookId: string;
                            url: string;
                            reason: string;
                            /** Format: date-time */
                            checkedAt: string;
                        }[];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    recheck_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform webhook id */
                webhookId: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookOwner"];
            };
        };
        responses: {
            /** @description The result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        valid: boolean;
                        reason?: string;
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
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    delete_webhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform webhook id */
                webhookId: components["parameters"]["webhookId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["WebhookOwner"];
            };
        };
        responses: {
            /** @description Deleted. */
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
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    app_status: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    check_app_credit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's state after the check (outOfCredit still true when the platform still refuses). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppStatus"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    read_home_timeline: {
        parameters: {
            query?: {
                count?: number;
                sinceId?: string;
                maxId?: string;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_user_timeline: {
        parameters: {
            query?: {
                count?: number;
                sinceId?: string;
                maxId?: string;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_user: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_profile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    update_profile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_update_profile"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_settings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    update_settings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_update_settings"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    search_posts: {
        parameters: {
            query: {
                query: string;
                sinceId?: string;
                count?: number;
                resultType?: "recent";
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_following: {
        parameters: {
            query?: {
                count?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    follow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    unfollow: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_post"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    delete_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    reply: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description The input's inReplyToPostId. */
                postId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_reply"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    repost: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    like: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    unlike: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_lists: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    create_list: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_create_list"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_subscribed_lists: {
        parameters: {
            query?: {
                count?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_list_posts: {
        parameters: {
            query?: {
                count?: number;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                listId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    delete_list: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                listId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    update_list: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                listId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_update_list"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    add_list_member: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                listId: string;
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    remove_list_member: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                listId: string;
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_collections: {
        parameters: {
            query?: {
                count?: number;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    create_collection: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_create_collection"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_collection_entries: {
        parameters: {
            query?: {
                count?: number;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                collectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    delete_collection: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                collectionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    update_collection: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                collectionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_update_collection"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    add_collection_entry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                collectionId: string;
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    remove_collection_entry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                collectionId: string;
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    mute: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    unmute: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    block: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    unblock: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                /** @description A user id (digits) or a screen name (with or without @). */
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    report: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_report"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    upload_media: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_upload_media"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_dms: {
        parameters: {
            query?: {
                count?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    send_dm: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_send_dm"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    mark_dm_read: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_mark_dm_read"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    indicate_typing: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["input_indicate_typing"];
            };
        };
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    read_dm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
    delete_dm: {
        parameters: {
            query?: never;
            header?: {
                /** @description Names this request among the caller's writes for this account (per credential, its sessions included, and account; another credential's same key is another request). The same key never sends twice: the stored answer is given again with replayed true; with another input it is 409 idempotency_key_reused; while the first is being sent, 409 command_in_progress. */
                "Idempotency-Key"?: components["parameters"]["idempotencyKey"];
            };
            path: {
                /** @description The platform user id of a connected account */
                accountId: components["parameters"]["accountId"];
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["ActionResult"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["Unprocessable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
            504: components["responses"]["GatewayTimeout"];
        };
    };
}

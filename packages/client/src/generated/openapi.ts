// Generated from the server's /openapi.json by scripts/generate.mjs. Do not edit.
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: every dependency this process needs, by name
         * @description 200 when the required dependencies answer (`status` `degraded` when Redis does not: rate limits are then counted per process). 503 `SERVICE_UNAVAILABLE` when a required one does not, each named in `details`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description `degraded`: a dependency that is not required is down (Redis); the process still serves. */
                            status: "ok" | "degraded";
                            /** @description `database` always; `redis` with `REDIS_URL`; `dns` (the DKIM responder thread) with `DNS_LISTEN`. */
                            dependencies: {
                                [key: string]: {
                                    status: "ok" | "down";
                                    required: boolean;
                                    detail?: string;
                                };
                            };
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List registered domains
         * @description The account’s registrations ordered by name, one page at a time; follow `nextCursor`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1–100 (default 50). */
                    limit?: string;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DomainPage"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register sending domains
         * @description Registers each entry and returns the DNS records to publish: three DKIM CNAMEs and one DMARC TXT. Idempotent: registering a domain again returns the same tokens and statuses (a different `domainType` updates it). HTTP 200 with one envelope per entry, in request order; a bad entry gets its own error without affecting the others.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "domains": [
                     *         {
                     *           "domain": "mail.example.com",
                     *           "domainType": "Transactional"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description At most 100 entries. */
                        domains: {
                            /**
                             * @description A fully qualified domain or subdomain name.
                             * @example mail.example.com
                             */
                            domain: string;
                            /**
                             * @description `Transactional` or `Marketing` (case-insensitive).
                             * @example Transactional
                             * @example Marketing
                             */
                            domainType: string;
                            /**
                             * @description Ask for a return-path (bounce) domain: `true` for `bounces.<domain>`, or the label to use instead (`"rp"` for `rp.<domain>`). Its CNAME joins the records (a fifth record, with its own status: `verified` does not wait for it); mail from the domain then carries an envelope sender there, so SPF passes aligned and bounces and complaints come back. Given again for a registered domain, it adds (or renames) the record; left out, nothing changes.
                             * @example true
                             * @example bounces
                             */
                            returnPath?: boolean | string;
                            /**
                             * @description Ask for a tracking host for open and click tracking: `true` for `track.<domain>`, or the label to use instead. Its CNAME joins the records (after the return path’s, with its own status: `verified` does not wait for it). Once it is verified, Marketing mail from the domain is tracked, and Transactional mail when a send asks (`tracking` in the send body). Given again for a registered domain, it adds (or renames) the record; left out, nothing changes.
                             * @example true
                             * @example track
                             */
                            tracking?: boolean | string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DomainEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        /**
         * Delete registrations
         * @description Deletes each named registration with its records (and, once hosted keys exist, its DKIM keys). HTTP 200 with one envelope per name, in request order.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description At most 100 names. */
                        domains: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeleteEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/domain/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check verification status
         * @description The current status of each named domain and of its records. HTTP 200 with one envelope per name, in request order; a name this account never registered gets `DOMAIN_NOT_REGISTERED` (404) in its envelope.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description At most 100 names. */
                        domains: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DomainEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/domain/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Status history
         * @description Every status change of each named domain and of its records, newest first (at most 200 per domain), with the reason DNS gave. HTTP 200 with one envelope per name, in request order.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description At most 100 names. */
                        domains: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HistoryEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/domain/setup-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Domain Connect setup link
         * @description A signed link that opens the DNS provider’s consent page (Domain Connect, synchronous flow), where the customer approves and the provider adds the four records; then the provider sends the browser to `redirect_uri` with `state` (and `error` when it failed or the customer declined). The domain result’s `domainConnect` says whether the provider supports it; when it does not, this answers `SETUP_LINK_UNAVAILABLE` with the reason, and the records are published by hand. Whatever the redirect says, the status shows what DNS holds.
         */
        get: {
            parameters: {
                query: {
                    /** @description A registered domain. */
                    domain: string;
                    /** @description Where the provider sends the customer back. */
                    redirect_uri?: string;
                    /** @description Returned unchanged with the redirect (e.g. to match the request). */
                    state?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SetupLinkEnvelope"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/domain/dkim/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate DKIM keys now
         * @description Moves signing to the domain’s `next` DKIM selector now, as the automatic rotation does every `DKIM_ROTATION_INTERVAL_DAYS` (90 by default): at once when its key has been served longer than the key zone’s TTL, otherwise as soon as it has. The selector that signed is retired (its key stays published for mail in flight), and the webhook event `domain.dkim_rotated` follows the switch. The customer’s CNAMEs do not change. Asking again before the switch changes nothing. `DKIM_ROTATION_UNAVAILABLE` (409) says why a rotation cannot happen now.
         */
        post: {
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
                         * @description A registered domain.
                         * @example mail.example.com
                         */
                        domain: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DkimRotationEnvelope"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/domain/local-dns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the local DNS answers (development only)
         * @description The address of the development local DNS (`LOCAL_DNS_LISTEN`), which answers the `.test` zones published in it; `LOCAL_DNS_OFF` (403) in production mode or with `LOCAL_DNS_LISTEN=off`. The dashboard asks it to offer its buttons.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @example 127.0.0.1:5354 */
                                server: string;
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Publish in the local DNS (development only)
         * @description Publishes every record the API lists for a registered `.test` domain in the development local DNS (`LOCAL_DNS_LISTEN`), which plays the domain’s DNS provider on this machine, then checks the domain at once through the ordinary verification path (real DNS queries to that server). So a domain turns `verified` (and `domain.verified` is sent) with no public DNS. `LOCAL_DNS_OFF` (403) in production mode; `LOCAL_DNS_NOT_TEST` (400) for any other domain.
         */
        post: {
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
                         * @description A registered domain under `.test`.
                         * @example acme.test
                         */
                        domain: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @example acme.test */
                                domain: string;
                                /**
                                 * @description Where the local DNS answers (`LOCAL_DNS_LISTEN`), for `dig @127.0.0.1 -p 5354 …`.
                                 * @example 127.0.0.1:5354
                                 */
                                server: string;
                                /** @description The domain’s records the local DNS holds now. */
                                records: {
                                    fqdn: string;
                                    type: "CNAME" | "TXT";
                                    /** @description As DNS holds it: a CNAME’s target, a TXT record’s text (no quotes). */
                                    value: string;
                                }[];
                                status: components["schemas"]["VerificationStatus"];
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        /**
         * Remove from the local DNS (development only)
         * @description Removes a `.test` domain’s records from the local DNS: those at `names` (each record’s `fqdn`), or all of them, as deleting them at a DNS provider would; then checks the domain. A removed record reads `not_found` at its next check; one already verified stays so for `VERIFY_GRACE_MS`, as in real DNS.
         */
        delete: {
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
                         * @description A registered domain under `.test`.
                         * @example acme.test
                         */
                        domain: string;
                        /** @description The `fqdn`s of the records to remove; absent: all of the domain’s. */
                        names?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @example acme.test */
                                domain: string;
                                /**
                                 * @description Where the local DNS answers (`LOCAL_DNS_LISTEN`), for `dig @127.0.0.1 -p 5354 …`.
                                 * @example 127.0.0.1:5354
                                 */
                                server: string;
                                /** @description The domain’s records the local DNS holds now. */
                                records: {
                                    fqdn: string;
                                    type: "CNAME" | "TXT";
                                    /** @description As DNS holds it: a CNAME’s target, a TXT record’s text (no quotes). */
                                    value: string;
                                }[];
                                status: components["schemas"]["VerificationStatus"];
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List saved templates
         * @description The account’s templates without their documents, most recently updated first; follow `nextCursor`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1–100 (default 50). */
                    limit?: string;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplatePage"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Save templates
         * @description Creates each entry. HTTP 200 with one envelope per entry, in request order; an entry with a bad name, a document the editor could not load, a document over the size limit or over the account’s template limit fails alone.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 1 to 100 templates. */
                        templates: {
                            /** @description 1–200 characters after trimming. */
                            name: string;
                            /** @description The editor’s JSON (`editor.getJSON()`); checked per item by the editor’s own rules. */
                            document: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        /**
         * Delete templates
         * @description Deletes each id. HTTP 200 with one envelope per id: `{id, deleted: true}` or `TEMPLATE_NOT_FOUND`.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 1 to 100 template ids. */
                        ids: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeletedTemplateEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Rename templates or replace their documents
         * @description Applies each change. HTTP 200 with one envelope per entry, in request order.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 1 to 100 changes. */
                        templates: {
                            id: string;
                            /** @description 1–200 characters after trimming. */
                            name?: string;
                            /** @description The editor’s JSON (`editor.getJSON()`); checked per item by the editor’s own rules. */
                            document?: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/public/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a template with its document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TemplateResult"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/templates/render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render stored templates with data
         * @description Renders each stored template to email HTML and plain text with its merge variables (`{{name}}`, `{{name|fallback}}`) filled from `variables`. Values are HTML-escaped (URL-encoded inside links); a variable with no value shows its fallback, or nothing, and is listed. HTTP 200 with one envelope per entry. At most 20 entries (`TEMPLATE_RENDER_MAX_ITEMS`) and 4194304 bytes of output per request (later entries fail alone with `TEMPLATE_RENDER_TOO_LARGE`). Each entry costs one render unit per started 16 KiB of its document from the key’s budget of 1200 per rate-limit window (`RENDER_BUDGET`): 429 `RATE_LIMITED` with `Retry-After` when spent.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description 1 to 20 templates to render. */
                        templates: {
                            id: string;
                            /** @description Values by variable name (`{"first_name": "Ada", "order": {"total": "$5"}}`); strings, numbers and booleans are used. */
                            variables?: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RenderedTemplateEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account’s images
         * @description Newest first, in the upload’s shape, with the account’s usage against its quota; follow `nextCursor`.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1–100 (default 50). */
                    limit?: string;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ImagePage"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Upload an image (ImageKit protocol)
         * @description Multipart `file` (PNG, JPEG, GIF or WebP, identified by its content; SVG refused), optional `fileName` and `folder` (ImageKit’s `useUniqueFileName` and other fields are accepted and ignored: names are content hashes). `Authorization: Basic base64(key + ":")` as ImageKit clients send it, or the key alone; the key needs scope `images`. Answers ImageKit’s JSON (`url`, `fileId`, `name`, `size`, `width`, `height`, `fileType`). Images declaring more pixels than the limit are refused before decoding. Every image is decoded and encoded again in its own format: metadata (GPS position, camera data) and anything appended to the image are dropped, EXIF orientation is applied. The account’s quota (`IMAGE_QUOTA_COUNT`, `IMAGE_QUOTA_BYTES`) counts each distinct image once: 409 `ACCOUNT_IMAGE_QUOTA` when full.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UploadedImage"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/images/{fileId}": {
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
         * Delete an image
         * @description The account stops holding the image and it leaves the quota. The file stops being served once no account holds it; copies that email clients, proxies or CDNs cached (it was served as immutable for a year) are beyond the service’s reach.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The `fileId` the upload answered. */
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeletedImageResult"];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/images/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An uploaded image
         * @description Public (email clients fetch it without credentials). The name is the content’s SHA-256, so the response never changes: `Cache-Control: public, max-age=31536000, immutable`, an `ETag`, `X-Content-Type-Options: nosniff`.
         */
        get: {
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
                /** @description The image bytes. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/png": string;
                        "image/jpeg": string;
                        "image/gif": string;
                        "image/webp": string;
                    };
                };
                /** @description Not modified: the `If-None-Match` ETag matched. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The account’s endpoints, oldest first, without their secrets; disabled ones show `disabledAt`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["WebhookEndpoint"][];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a webhook endpoint
         * @description Domain events are POSTed to `url`, signed as Standard Webhooks specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature`). The answer holds the signing secret, shown only this once. The URL must be `https://` and resolve only to public addresses (checked again at every delivery). Full API keys only.
         */
        post: {
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
                         * @description Where events are POSTed: `https://`, at most 2,048 characters, resolving only to public addresses.
                         * @example https://hooks.example.com/domains
                         */
                        url: string;
                        /** @description Default: all. */
                        events?: ("domain.created" | "domain.updated" | "domain.verified" | "domain.deleted" | "domain.dkim_rotated" | "email.sent" | "email.delivered" | "email.deferred" | "email.bounced" | "email.failed" | "email.complained" | "email.opened" | "email.clicked")[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CreatedWebhook"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/webhooks/{id}": {
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
         * Remove a webhook endpoint
         * @description Removes the endpoint and its deliveries; nothing more is sent to it.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {boolean} */
                                deleted: true;
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/webhooks/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a disabled webhook endpoint
         * @description An endpoint whose every attempt failed for 5 days is disabled; this resumes its deliveries (the waiting ones included) and forgets the failures.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["WebhookEndpoint"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent deliveries of a webhook endpoint
         * @description The 100 most recent deliveries, newest first: event, HTTP status, duration and error of the last attempt, and the next retry.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["WebhookDelivery"][];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Makes the delivery due now, whatever became of it, with the same `webhook-id` and body. Past the retry window it gets this one attempt.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    deliveryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["WebhookDelivery"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/emails": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account’s messages, newest first
         * @description A page at a time (`limit`, default 50, at most 100; follow `nextCursor`), filtered by `status`, by a recipient address (`to`), by the sending `domain`, by a tag (`tag=name` or `tag=name:value`), and by creation time (`after` inclusive, `before` exclusive, RFC 3339). Each filter is an index range, so a page costs the same at ten million messages.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1–100 (default 50). */
                    limit?: string;
                    cursor?: string;
                    status?: "scheduled" | "queued" | "sending" | "sent" | "deferred" | "bounced" | "failed" | "canceled";
                    /** @description An envelope recipient (to, cc or bcc). */
                    to?: string;
                    /** @description The same as `to`. */
                    recipient?: string;
                    domain?: string;
                    /** @description Created at or after this time. */
                    after?: string;
                    /** @description Created before this time. */
                    before?: string;
                    /** @description The same as `after`. */
                    since?: string;
                    /** @description The same as `before`. */
                    until?: string;
                    /** @description A tag: `name` (messages carrying it, whatever its value) or `name:value`. With `tagValue`, `tag` is the whole name. */
                    tag?: string;
                    /** @description With `tag`: messages carrying it with this value. */
                    tagValue?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                emails: components["schemas"]["ListedEmail"][];
                                nextCursor: string | null;
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Send an email from a verified domain
         * @description Queues the message and answers at once; `GET /api/public/emails/{id}` tells what became of it. It is DKIM-signed with the domain’s active selector (aligned with `From`, so it passes DMARC), and carries `Message-ID`, `Date`, and for Marketing domains a one-click `List-Unsubscribe`. With an `Idempotency-Key` header, a retry of the same request answers the same message instead of sending twice. Each request costs one composition unit per started 16 KiB of its body from the account’s budget of 2400 per rate-limit window (`EMAIL_COMPOSE_BUDGET`), charged before the body is parsed: 429 `RATE_LIMITED` with `Retry-After` when spent.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SendEmailBody"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                status: "queued" | "scheduled";
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/emails/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send up to 100 emails in one request
         * @description Each entry is a `POST /api/public/emails` body (its own `from`, recipients, `templateId` and `variables`, `scheduledAt`…), and each gets its own envelope, in request order: an entry that is malformed or refused fails alone, with the error a single send would get. The whole body is at most 10485760 bytes, as one message's, and costs the account's composition budget as one. With an `Idempotency-Key` header the batch is the request: a retry of the same body answers the messages queued the first time and tries again only the entries refused; another body under the same key is refused with `IDEMPOTENCY_KEY_REUSED`.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        emails: components["schemas"]["SendEmailBody"][];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SendEnvelope"][];
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/emails/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a scheduled email
         * @description A message waiting for its `scheduledAt` is not sent: its status becomes `canceled`, with a `canceled` event per recipient. Once its sending has begun it is too late: 409 `EMAIL_NOT_SCHEDULED`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {string} */
                                status: "canceled";
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/emails/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What became of a message
         * @description Its status, and each recipient’s with every attempt’s SMTP answer.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Email"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Move a scheduled email
         * @description A message waiting for its `scheduledAt` goes at the new time instead (up to 30 days ahead; a time not in the future sends it at once), its `Date` header with it. Once its sending has begun: 409 `EMAIL_NOT_SCHEDULED`.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: date-time
                         * @example 2026-12-01T09:00:00Z
                         */
                        scheduledAt: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: string;
                                /** @enum {string} */
                                status: "scheduled";
                                /** Format: date-time */
                                scheduledAt: string;
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/public/emails/{id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A message as its recipients get it
         * @description Its subject, header fields, and decoded HTML and text parts, read from the stored message (the fields each attempt adds aside: DKIM-Signature, Feedback-ID, a Marketing recipient’s List-Unsubscribe). Tracked links are shown as their destinations and the open pixel is left out: each recipient’s copy has its own. For showing what was sent; render the HTML only in a sandboxed frame.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["EmailContent"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account’s suppressed addresses
         * @description Addresses that hard-bounced or unsubscribed: later messages to them are not sent to them (their recipient status is `suppressed`). By address, 100 a page; pass the last address as `after`.
         */
        get: {
            parameters: {
                query?: {
                    after?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Suppression"][];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/suppressions/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove an address from the suppression list */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                address: string;
                                /** @enum {boolean} */
                                deleted: true;
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account’s API keys
         * @description Oldest first, revoked ones too (`revokedAt`); never a key itself.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ApiKey"][];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an API key in this account
         * @description Its `key` is in this answer only. `scopes` defaults to `["*"]`; `["sending"]` makes a sending key (`scope` is another name for `scopes`); `["templates", "images"]` makes a key a web page may hold (the editor’s uploads and My Templates). With `domains` (registered domains of this account), the key sends only from those and reads only their messages, as a platform gives its customer: its scopes are `["sending"]`, and it reads neither the suppression list nor the sandbox (both are the account’s). At most 100 live keys per account.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example production app */
                        name: string;
                        scopes?: ("*" | "sending" | "templates" | "images")[];
                        scope?: ("*" | "sending" | "templates" | "images")[];
                        /**
                         * @example [
                         *       "mail.customer.example"
                         *     ]
                         */
                        domains?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CreatedApiKey"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/keys/{id}": {
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
         * Revoke an API key
         * @description It stops working at once, on every process. Not the key making this request (`API_KEY_IN_USE`): revoke that one with another key.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ApiKey"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/sandbox/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The capture inbox (development only)
         * @description What was sent to `sandbox.test` addresses, newest first; follow `nextCursor`. Outside production mode only: in production this route does not exist.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size, 1–100 (default 50). */
                    limit?: string;
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                messages: components["schemas"]["CapturedMessageSummary"][];
                                nextCursor: string | null;
                            };
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/sandbox/messages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One captured message (development only)
         * @description As a receiver got it: headers, HTML, text, the raw message, and its SPF, DKIM and DMARC verdicts.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CapturedMessage"];
                            error: null;
                            /** @enum {number} */
                            status: 200;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "domain.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * domain.created event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "domain.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * domain.updated event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "domain.verified": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * domain.verified event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "domain.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * domain.deleted event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "domain.dkim_rotated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * domain.dkim_rotated event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.sent event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.delivered": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.delivered event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.deferred": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.deferred event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.bounced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.bounced event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.failed event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.complained": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.complained event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.opened": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.opened event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "email.clicked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * email.clicked event
         * @description Sent to every endpoint subscribed to the event, with `webhook-id` (the same on every retry), `webhook-timestamp` and `webhook-signature` (Standard Webhooks). Answer 2xx within 10 s; anything else is retried with back-off for 3 days.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["EmailWebhookEvent"];
                };
            };
            responses: {
                /** @description Received. */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description State of a domain or of one record. */
        VerificationStatus: "pending" | "verified";
        ProviderHint: {
            /** @description What the hint is about: `name` (the host field), `proxy` (Cloudflare’s proxy), `target` (a final dot on the CNAME target), `quotes` (TXT quoting), `length` (the longest TXT value the form takes), `ttl`. */
            topic: "name" | "proxy" | "target" | "quotes" | "length" | "ttl";
            /** @description One sentence of advice for entering the record at this DNS provider. */
            text: string;
            /**
             * Format: uri
             * @description The provider’s own documentation page that states the fact behind `text`.
             */
            source: string;
            /** @description The id of the provider whose record form the hint is about: one of the domain’s `providers`. */
            provider: string;
        };
        DnsProvider: {
            /** @description Stable id: `cloudflare`, `route53`, `godaddy`, `namecheap`, `google-cloud-dns`, `azure`, `digitalocean`, `ovh`, `gandi`, `hetzner`, `ionos`, `porkbun`, `vercel`, `ns1` (the list may grow). `ns1` was `netlify` before: Netlify DNS serves zones from NS1’s name servers, which cannot tell the two apart. */
            id: string;
            /** @description The provider’s name, for people; it says when the name servers are shared with another service (`IBM NS1 Connect (also used by Netlify DNS)`). */
            name: string;
            /** @description The provider’s page on adding DNS records, when known. */
            docs: string | null;
        };
        DomainConnect: {
            /** @description Whether the zone’s DNS provider can add the four records itself through Domain Connect. */
            supported: boolean;
            /** @description The DNS provider as its Domain Connect settings name it; `null` when it offers none. */
            providerName: string | null;
            /** @description When supported: the signed link that opens the provider’s consent page, which adds the records. Without `redirect_uri`; `GET /api/public/domain/setup-link` makes one with it. `null` otherwise. */
            url: string | null;
            /** @description When not supported: why, ending in what to do instead (add the records by hand). */
            detail: string | null;
        };
        DkimSelector: {
            /** @description The selector (`s=` of signatures): the token of one of the three DKIM CNAMEs. */
            selector: string;
            /** @description `active`: signatures use this selector. `next`: its key is published and signing moves to it at the next rotation. `retired`: it signed before; its key stays published for mail in flight, then it gets a new key and becomes `next`. `null`: its first key is being made (seconds after registration). */
            state: "active" | "next" | "retired" | null;
            /** @description When its current key was made (the key’s age); `null` before. */
            keyCreatedAt: string | null;
            /** @description When it took its `state`; for `next`, when its key was seen served by every name server of the key zone (`null` until then: it cannot sign before). */
            since: string | null;
        };
        DkimStatus: {
            /** @description The three selectors, in record order. Rotation moves the roles; the CNAMEs never change. */
            selectors: components["schemas"]["DkimSelector"][];
            /** @description When signing last moved to another selector; `null` before the first rotation. */
            rotatedAt: string | null;
            /** @description When signing is planned to move to the `next` selector: the active key’s age reaching `DKIM_ROTATION_INTERVAL_DAYS` (90 by default), or sooner when asked for. `null` while the keys are being made, while a CNAME is not in the customer’s DNS, or with rotation turned off. */
            nextRotationAt: string | null;
            /** @description A rotation asked for (`POST /api/public/domain/dkim/rotate`) and not done yet. */
            rotationRequestedAt: string | null;
        };
        DnsRecord: {
            /** @description Host name to publish, relative to `zone`, the zone the customer edits: `<token>._domainkey.mail` and `_dmarc.mail` for `mail.example.com` in `example.com`; `<token>._domainkey` and `_dmarc` for the apex `example.com`. */
            name: string;
            type: "CNAME" | "TXT";
            /** @description CNAME: `<token>.dkim.<provider host>`. TXT: the quoted DMARC policy. */
            value: string;
            status: components["schemas"]["VerificationStatus"];
            /** @description CNAME: the selector token. TXT: the same quoted string as `value`. */
            record: string;
            /** @enum {string} */
            ttl: "Auto";
            /** @description The record’s fully qualified name, for DNS hosts that want it whole. */
            fqdn: string;
            /** @description The zone `name` is relative to: the registrable domain by the Public Suffix List (`example.com` for `mail.example.com`). */
            zone: string;
            /** @description Why the last check did not find the record as expected: `not_found` (no such record), `wrong_type` (the name holds other record types), `wrong_value` (another target, or a DMARC record that is invalid or duplicated), `dns_error` (no definitive answer; the status is kept). `null` when it matched. */
            reason: "not_found" | "wrong_type" | "wrong_value" | "dns_error" | null;
            /** @description What DNS answered instead, when it answered something. */
            found: string | null;
            /** @description What is wrong and what to do, in a sentence. */
            detail: string | null;
            /** @description When this record was last checked; `null` before the first check. */
            lastCheckedAt: string | null;
            /** @description What each DNS provider serving the zone (`providers`) documents about entering this record there: the host field, quoting, the proxy, the TTL; each hint’s `provider` says whose, provider by provider in the order of `providers`. Empty when no provider is known or their documentation says nothing that applies. `name` stays relative to `zone` whatever the provider. */
            providerHints: components["schemas"]["ProviderHint"][];
        };
        DomainResult: {
            /** @description The domain in its ASCII (punycode) form. */
            domain: string;
            status: components["schemas"]["VerificationStatus"];
            /** @description Three DKIM CNAME records, then one DMARC TXT record; then, for a domain registered with `returnPath`, the return-path CNAME (`bounces.<domain>` to `return-path.dkim.<provider host>`), whose status the domain’s `status` does not wait for. */
            records: components["schemas"]["DnsRecord"][];
            /** @description Whether DNS showed the zone that each record’s `zone` and `name` are relative to. The registration looks the zone up itself (waiting at most `STATUS_CHECK_WAIT_MS`), so a delegated subdomain (`mail.example.com` as its own zone) is named right from the first answer. `false`: DNS has not shown it yet (no answer in time, or no zone found): the names are relative to the registrable domain and may change at a later check; `fqdn` is right either way. */
            zoneConfirmed: boolean;
            /** @description The domain type, in canonical spelling. */
            type: "Transactional" | "Marketing";
            /** @description When DNS was last checked; `null` before the first check. */
            lastCheckedAt: string | null;
            /** @description When the background scheduler checks next; a status request re-checks sooner if the last check is a few seconds old. `null`: a domain pending for more than 30 days is checked only when its status is requested. */
            nextCheckAt: string | null;
            /** @description The DNS provider hosting the domain’s zone, named from the zone’s NS records at the last check: when several serve it, the one most name servers belong to (the first of `providers`). `null` before the first check or when the name servers are not a provider we know. */
            provider: components["schemas"]["DnsProvider"] | null;
            /** @description Every known DNS provider serving the domain’s zone, the one with the most name servers first (a tie in the catalogue’s order), from the zone’s NS records at the last check; empty before the first check or when none is known. With more than one, the zone is served by several providers: enter the records at each of them (at the primary alone when the others copy the zone from it by zone transfer), or some resolvers will not find them. */
            providers: components["schemas"]["DnsProvider"][];
            /** @description Setting the domain up in one click through its DNS provider (Domain Connect, synchronous flow), as the last check found it; `null` before the first check or with `DOMAIN_CONNECT_ENABLED=false`. */
            domainConnect: components["schemas"]["DomainConnect"] | null;
            dkim: components["schemas"]["DkimStatus"];
        };
        ApiError: {
            /** @description Stable machine-readable code; see the error catalogue. */
            code: "AUTH_MISSING" | "AUTH_INVALID" | "AUTH_SCOPE" | "REQUEST_BAD_JSON" | "REQUEST_INVALID" | "REQUEST_TOO_MANY_ITEMS" | "REQUEST_BODY_TOO_LARGE" | "REQUEST_UNSUPPORTED_MEDIA_TYPE" | "REQUEST_HEADERS_TOO_LARGE" | "REQUEST_TIMEOUT" | "REQUEST_MALFORMED" | "RATE_LIMITED" | "REQUEST_TOO_COSTLY" | "ROUTE_NOT_FOUND" | "SERVICE_UNAVAILABLE" | "INTERNAL_ERROR" | "DOMAIN_EMPTY" | "DOMAIN_TOO_LONG" | "DOMAIN_INVALID_CHARACTER" | "DOMAIN_WILDCARD" | "DOMAIN_IP_ADDRESS" | "DOMAIN_INVALID_LABEL" | "DOMAIN_MIXED_SCRIPTS" | "DOMAIN_SINGLE_LABEL" | "DOMAIN_PUBLIC_SUFFIX" | "DOMAIN_RESERVED" | "DOMAIN_TYPE_INVALID" | "RETURN_PATH_INVALID" | "TRACKING_INVALID" | "DOMAIN_NOT_REGISTERED" | "DOMAIN_TYPE_CONFLICT" | "ACCOUNT_DOMAIN_LIMIT" | "SETUP_LINK_DOMAIN_UNKNOWN" | "SETUP_LINK_UNAVAILABLE" | "SETUP_LINK_REDIRECT_INVALID" | "DKIM_ROTATION_DOMAIN_UNKNOWN" | "DKIM_ROTATION_UNAVAILABLE" | "LOCAL_DNS_OFF" | "LOCAL_DNS_DOMAIN_UNKNOWN" | "LOCAL_DNS_NOT_TEST" | "IMAGE_MISSING" | "IMAGE_TYPE_UNSUPPORTED" | "IMAGE_INVALID" | "IMAGE_TOO_LARGE" | "IMAGE_DIMENSIONS_TOO_LARGE" | "ACCOUNT_IMAGE_QUOTA" | "IMAGE_NOT_FOUND" | "TEMPLATE_NOT_FOUND" | "TEMPLATE_NAME_INVALID" | "TEMPLATE_DOCUMENT_INVALID" | "TEMPLATE_TOO_LARGE" | "TEMPLATE_RENDER_TOO_LARGE" | "ACCOUNT_TEMPLATE_LIMIT" | "WEBHOOK_URL_INVALID" | "WEBHOOK_URL_TOO_LONG" | "WEBHOOK_URL_FORBIDDEN" | "WEBHOOK_URL_UNRESOLVABLE" | "ACCOUNT_WEBHOOK_LIMIT" | "ACCOUNT_KEY_LIMIT" | "API_KEY_NOT_FOUND" | "API_KEY_IN_USE" | "WEBHOOK_NOT_FOUND" | "WEBHOOK_DELIVERY_NOT_FOUND" | "EMAIL_ADDRESS_INVALID" | "EMAIL_FROM_NOT_VERIFIED" | "EMAIL_FROM_NOT_ALLOWED" | "EMAIL_SANDBOX_OFF" | "EMAIL_SANDBOX_RECIPIENT" | "EMAIL_TOO_MANY_RECIPIENTS" | "EMAIL_CONTENT_MISSING" | "EMAIL_HEADER_INVALID" | "EMAIL_ATTACHMENT_INVALID" | "EMAIL_ATTACHMENT_BLOCKED" | "EMAIL_TOO_LARGE" | "EMAIL_HTML_TOO_DEEP" | "EMAIL_SCHEDULE_INVALID" | "EMAIL_NOT_FOUND" | "EMAIL_CONTENT_EXPIRED" | "EMAIL_NOT_SCHEDULED" | "SANDBOX_MESSAGE_NOT_FOUND" | "IDEMPOTENCY_KEY_INVALID" | "IDEMPOTENCY_KEY_REUSED" | "ACCOUNT_SENDING_RATE" | "SUPPRESSION_NOT_FOUND";
            /** @description What went wrong, for humans. */
            message: string;
            details?: {
                path: string;
                message: string;
            }[];
            requestId?: string;
        };
        ErrorEnvelope: {
            data: null;
            error: components["schemas"]["ApiError"];
            status: number;
        };
        DomainEnvelope: {
            data: components["schemas"]["DomainResult"] | null;
            error: components["schemas"]["ApiError"] | null;
            /** @description 200 on success, else the item’s error status (400, 404, 409). */
            status: number;
        };
        StatusEvent: {
            /** Format: date-time */
            at: string;
            /** @description The record’s `fqdn`, or `null` for the domain’s own status. */
            record: string | null;
            from: components["schemas"]["VerificationStatus"];
            to: components["schemas"]["VerificationStatus"];
            reason: string | null;
            found: string | null;
        };
        DomainHistory: {
            domain: string;
            /** @description Newest first. */
            events: components["schemas"]["StatusEvent"][];
        };
        HistoryEnvelope: {
            data: components["schemas"]["DomainHistory"] | null;
            error: components["schemas"]["ApiError"] | null;
            status: number;
        };
        DeletedDomain: {
            domain: string;
            /** @enum {boolean} */
            deleted: true;
        };
        DeleteEnvelope: {
            data: components["schemas"]["DeletedDomain"] | null;
            error: components["schemas"]["ApiError"] | null;
            status: number;
        };
        DomainPage: {
            data: {
                domains: components["schemas"]["DomainResult"][];
                /** @description Pass as `cursor` to get the next page; `null` on the last page. */
                nextCursor: string | null;
            };
            error: null;
            /** @enum {number} */
            status: 200;
        };
        SetupLinkEnvelope: {
            data: {
                domain: string;
                /** @description The DNS provider as its Domain Connect settings name it. */
                providerName: string | null;
                /**
                 * Format: uri
                 * @description Open it in the customer’s browser (a new window or a redirect); it is signed, so it cannot be altered.
                 */
                url: string;
            };
            error: null;
            /** @enum {number} */
            status: 200;
        };
        DkimRotationEnvelope: {
            data: {
                domain: string;
                dkim: components["schemas"]["DkimStatus"];
            };
            error: null;
            /** @enum {number} */
            status: 200;
        };
        /** @description A document of the editor’s own JSON (`editor.getJSON()`), as the editor’s rules cleaned it: unknown blocks are refused, unsafe URLs emptied. */
        TemplateDocument: {
            /** @enum {string} */
            type: "doc";
            attrs?: {
                [key: string]: unknown;
            };
            content?: unknown[];
        };
        TemplateSummary: {
            /** @description The template’s id, `tpl_…`. */
            id: string;
            name: string;
            /** @description Bytes of the document’s JSON. */
            size: number;
            /** @description ISO 8601 time. */
            createdAt: string;
            /** @description ISO 8601 time. */
            updatedAt: string;
        };
        Template: {
            /** @description The template’s id, `tpl_…`. */
            id: string;
            name: string;
            /** @description Bytes of the document’s JSON. */
            size: number;
            /** @description ISO 8601 time. */
            createdAt: string;
            /** @description ISO 8601 time. */
            updatedAt: string;
            document: components["schemas"]["TemplateDocument"];
        };
        TemplateEnvelope: {
            data: components["schemas"]["Template"] | null;
            error: components["schemas"]["ApiError"] | null;
            /** @description 200 on success, else the item’s error status. */
            status: number;
        };
        DeletedTemplateEnvelope: {
            data: {
                id: string;
                /** @enum {boolean} */
                deleted: true;
            } | null;
            error: components["schemas"]["ApiError"] | null;
            /** @description 200 on success, else the item’s error status. */
            status: number;
        };
        RenderedTemplateEnvelope: {
            data: {
                id: string;
                /** @description The email as a complete HTML document, variables filled and escaped. */
                html: string;
                /** @description The plain-text alternative, variables filled. */
                text: string;
                /** @description Variables with no value and no fallback: rendered as empty text. */
                missing: string[];
                /** @description Variables with no value that showed their fallback. */
                defaulted: string[];
                /** @description Variables whose value was refused as a whole link URL (not http(s), mailto or tel). */
                unsafe: string[];
            } | null;
            error: components["schemas"]["ApiError"] | null;
            /** @description 200 on success, else the item’s error status. */
            status: number;
        };
        TemplatePage: {
            data: {
                templates: components["schemas"]["TemplateSummary"][];
                /** @description Pass as `cursor` to get the next page; `null` on the last page. */
                nextCursor: string | null;
            };
            error: null;
            /** @enum {number} */
            status: 200;
        };
        TemplateResult: {
            data: components["schemas"]["Template"];
            error: null;
            /** @enum {number} */
            status: 200;
        };
        UploadedImage: {
            /** @description The content’s SHA-256, hex (the same bytes always get the same id). */
            fileId: string;
            /** @description The `fileName` sent, without any path. */
            name: string;
            /** @description Where the image is served, absolute: use it in `<img src>`. */
            url: string;
            /** @description The same, relative to the service. */
            filePath: string;
            /** @description Bytes. */
            size: number;
            width: number;
            height: number;
            /** @enum {string} */
            fileType: "image";
            /** @description `image/png`, `image/jpeg`, `image/gif` or `image/webp`, from the content. */
            mime: string;
        };
        ImagePage: {
            data: {
                images: components["schemas"]["UploadedImage"][];
                /** @description Pass as `cursor` to get the next page; `null` on the last page. */
                nextCursor: string | null;
                usage: {
                    /** @description Images the account holds. */
                    count: number;
                    /** @description Their bytes, as stored. */
                    bytes: number;
                    /** @description The quota of images (`IMAGE_QUOTA_COUNT`). */
                    maxCount: number;
                    /** @description The quota of bytes (`IMAGE_QUOTA_BYTES`). */
                    maxBytes: number;
                };
            };
            error: null;
            /** @enum {number} */
            status: 200;
        };
        DeletedImageResult: {
            data: {
                fileId: string;
                /** @enum {boolean} */
                deleted: true;
            };
            error: null;
            /** @enum {number} */
            status: 200;
        };
        WebhookEndpoint: {
            id: string;
            url: string;
            events: ("domain.created" | "domain.updated" | "domain.verified" | "domain.deleted" | "domain.dkim_rotated" | "email.sent" | "email.delivered" | "email.deferred" | "email.bounced" | "email.failed" | "email.complained" | "email.opened" | "email.clicked")[];
            /**
             * Format: date-time
             * @description When the endpoint was added.
             */
            createdAt: string;
            /** @description When deliveries stopped because every attempt failed for 5 days (`WEBHOOK_DISABLE_AFTER_MS`); `null` while enabled. `POST /api/public/webhooks/{id}/enable` resumes them. */
            disabledAt: string | null;
            /** @description Since when every attempt has failed; `null` after any success. */
            failingSince: string | null;
        };
        CreatedWebhook: {
            id: string;
            url: string;
            events: ("domain.created" | "domain.updated" | "domain.verified" | "domain.deleted" | "domain.dkim_rotated" | "email.sent" | "email.delivered" | "email.deferred" | "email.bounced" | "email.failed" | "email.complained" | "email.opened" | "email.clicked")[];
            /**
             * Format: date-time
             * @description When the endpoint was added.
             */
            createdAt: string;
            /** @description When deliveries stopped because every attempt failed for 5 days (`WEBHOOK_DISABLE_AFTER_MS`); `null` while enabled. `POST /api/public/webhooks/{id}/enable` resumes them. */
            disabledAt: string | null;
            /** @description Since when every attempt has failed; `null` after any success. */
            failingSince: string | null;
            /** @description The signing secret, `whsec_<base64>` (Standard Webhooks). Shown only in this answer: store it to verify `webhook-signature`. */
            secret: string;
        };
        WebhookDelivery: {
            id: string;
            /** @description The event’s id, sent as `webhook-id` on every attempt. */
            eventId: string;
            /** @description `domain.created` (registered), `domain.updated` (the domain’s or a record’s status changed), `domain.verified` (the domain became verified; sent after its `domain.updated`), `domain.deleted`, `domain.dkim_rotated` (signing moved to the next DKIM selector: `dkim` shows the new roles); `email.sent` (the next hop, a relay or the recipient’s MX, took a message for a recipient), `email.delivered` (the recipient’s MX took it: direct delivery only), `email.deferred` (a 4xx or no answer; it will be retried), `email.bounced` (a 5xx, or a bounce (DSN) that came back to the return path later, with `bounceType`: only `hard` suppresses the address), `email.complained` (a recipient reported the message as spam, through their provider’s feedback loop: the address is suppressed for the message’s stream), `email.failed` (not sent: retries ran out, or it could not be signed), `email.opened` and `email.clicked` (a tracked message was opened or a tracked link followed, issue 37; `machine` says when a machine did it). */
            event: "domain.created" | "domain.updated" | "domain.verified" | "domain.deleted" | "domain.dkim_rotated" | "email.sent" | "email.delivered" | "email.deferred" | "email.bounced" | "email.failed" | "email.complained" | "email.opened" | "email.clicked";
            /** @description `failed`: no attempt succeeded within the retry window (3 days by default). */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            /** @description The HTTP status of the last attempt; `null` when none came (timeout, connection refused). */
            lastStatusCode: number | null;
            lastDurationMs: number | null;
            /** @description Why the last attempt failed. */
            lastError: string | null;
            /** @description When the last attempt ended. */
            lastAttemptAt: string | null;
            /** @description When the next attempt is due; `null` once delivered or failed. */
            nextAttemptAt: string | null;
            /**
             * Format: date-time
             * @description When the event happened.
             */
            createdAt: string;
        };
        WebhookEvent: {
            type: "domain.created" | "domain.updated" | "domain.verified" | "domain.deleted" | "domain.dkim_rotated";
            /**
             * Format: date-time
             * @description When the change happened.
             */
            createdAt: string;
            /** @description The domain result as `POST /api/public/domain/status` returns it, as it was at the event, plus `previous`. */
            data: {
                /** @description The domain in its ASCII (punycode) form. */
                domain: string;
                status: components["schemas"]["VerificationStatus"];
                /** @description Three DKIM CNAME records, then one DMARC TXT record; then, for a domain registered with `returnPath`, the return-path CNAME (`bounces.<domain>` to `return-path.dkim.<provider host>`), whose status the domain’s `status` does not wait for. */
                records: components["schemas"]["DnsRecord"][];
                /** @description Whether DNS showed the zone that each record’s `zone` and `name` are relative to. The registration looks the zone up itself (waiting at most `STATUS_CHECK_WAIT_MS`), so a delegated subdomain (`mail.example.com` as its own zone) is named right from the first answer. `false`: DNS has not shown it yet (no answer in time, or no zone found): the names are relative to the registrable domain and may change at a later check; `fqdn` is right either way. */
                zoneConfirmed: boolean;
                /** @description The domain type, in canonical spelling. */
                type: "Transactional" | "Marketing";
                /** @description When DNS was last checked; `null` before the first check. */
                lastCheckedAt: string | null;
                /** @description When the background scheduler checks next; a status request re-checks sooner if the last check is a few seconds old. `null`: a domain pending for more than 30 days is checked only when its status is requested. */
                nextCheckAt: string | null;
                /** @description The DNS provider hosting the domain’s zone, named from the zone’s NS records at the last check: when several serve it, the one most name servers belong to (the first of `providers`). `null` before the first check or when the name servers are not a provider we know. */
                provider: components["schemas"]["DnsProvider"] | null;
                /** @description Every known DNS provider serving the domain’s zone, the one with the most name servers first (a tie in the catalogue’s order), from the zone’s NS records at the last check; empty before the first check or when none is known. With more than one, the zone is served by several providers: enter the records at each of them (at the primary alone when the others copy the zone from it by zone transfer), or some resolvers will not find them. */
                providers: components["schemas"]["DnsProvider"][];
                /** @description Setting the domain up in one click through its DNS provider (Domain Connect, synchronous flow), as the last check found it; `null` before the first check or with `DOMAIN_CONNECT_ENABLED=false`. */
                domainConnect: components["schemas"]["DomainConnect"] | null;
                dkim: components["schemas"]["DkimStatus"];
                /** @description The statuses before the change (`domain.updated`, `domain.verified`); `null` for `domain.created`, `domain.deleted` and `domain.dkim_rotated`. */
                previous: {
                    status: components["schemas"]["VerificationStatus"];
                    records: {
                        fqdn: string;
                        status: components["schemas"]["VerificationStatus"];
                    }[];
                } | null;
            };
        };
        EmailWebhookEvent: {
            type: "email.sent" | "email.delivered" | "email.deferred" | "email.bounced" | "email.failed" | "email.complained" | "email.opened" | "email.clicked";
            /**
             * Format: date-time
             * @description When the attempt ended.
             */
            createdAt: string;
            data: {
                /** @description The message’s id: `GET /api/public/emails/{id}`. */
                id: string;
                from: string;
                subject: string;
                tags: {
                    name: string;
                    value: string;
                }[];
                recipient: string;
                /** @description The SMTP reply code, `null` when none came. */
                smtpCode: number | null;
                smtpText: string | null;
                /** @description The host that answered (the relay, with `SMTP_RELAY_URL`). */
                mxHost: string | null;
                attempts: number;
                /** @description For a bounce: `hard` (the address or its domain does not exist: 5.1.x, 5.2.1; the address is suppressed), `soft` (full mailbox 5.2.2, too large, a temporary state), `block` (the receiver refused the sender or the content: 5.7.x, blocklists; the address is good and is not suppressed), `undetermined` (a refusal that says neither). */
                bounceType?: "hard" | "soft" | "block" | "undetermined";
                /** @description `email.bounced`: the enhanced status code (RFC 3463) such as `5.1.1`, `null` when none came. */
                diagnosticCode?: string | null;
                /** @description `email.bounced`: whether the address went on the suppression list (a hard bounce); `email.complained`: always (for the message’s stream). */
                suppressed?: boolean;
                /** @description `email.complained`: the complaint report’s `Feedback-Type` (RFC 5965): `abuse`, `fraud`, `virus`, `other`. */
                feedbackType?: string;
                /** @description `email.clicked`: the link followed. */
                url?: string;
                /** @description `email.opened` and `email.clicked`: whether a machine did it rather than a person, as far as the request tells (`machineReason` says why). */
                machine?: boolean;
                /** @description `apple_privacy_protection` (Apple Mail loads every image through a proxy, whether the message is read or not), `security_scanner` (a mail gateway or program fetched it, by its user agent), `head_request` (a link checked, not followed), `too_soon` (a link followed within 10 s of the copy leaving: a gateway scanning mail as it arrives) */
                machineReason?: ("apple_privacy_protection" | "security_scanner" | "head_request" | "too_soon") | null;
            };
        };
        SendEmailBody: {
            /**
             * @description An address on a verified domain of this account, e.g. `Ann <ann@mail.example.com>`.
             * @example Ann <ann@mail.example.com>
             */
            from: string;
            /**
             * @example [
             *       "bob@example.org"
             *     ]
             */
            to: string[];
            /** @description Copied recipients, shown in the `Cc` header. */
            cc?: string[];
            /** @description Blind copies: in the SMTP envelope only, never in a header. */
            bcc?: string[];
            replyTo?: string | string[];
            /** @example Your receipt */
            subject: string;
            /** @description The HTML body; give this or `templateId`. */
            html?: string;
            /** @description The plain-text body. Default: the editor’s plain-text rendering of the template, or a text rendering of `html`. */
            text?: string;
            /** @description A stored template, rendered by the editor’s own renderer. */
            templateId?: string;
            /** @description Merge variables for `templateId`. */
            variables?: {
                [key: string]: unknown;
            };
            /** @description Extra header fields (not those the service sets: From, To, Subject, Date, Message-ID…). */
            headers?: {
                [key: string]: string;
            };
            tags?: {
                name: string;
                value: string;
            }[];
            /** @description Files sent with the message. Types mailbox providers refuse (`.exe`, `.js`, `.bat`… by name, executables by content, and such files in a ZIP) are refused with `EMAIL_ATTACHMENT_BLOCKED`. */
            attachments?: {
                /** @example invoice-1234.pdf */
                filename: string;
                /**
                 * @description The file, base64 (RFC 4648); counted in `MAX_EMAIL_BYTES` once decoded.
                 * @example JVBERi0xLjQK
                 */
                content: string;
                /**
                 * @description Its media type; by default, from the file name’s extension.
                 * @example application/pdf
                 */
                contentType?: string;
                /**
                 * @description Makes the file an inline part, shown where the HTML says `<img src="cid:…">`.
                 * @example logo@shop
                 */
                contentId?: string;
            }[];
            /**
             * Format: date-time
             * @description Send at this time (RFC 3339 with a zone, up to 30 days ahead) instead of at once; the message is `scheduled` until then, can be canceled (`POST /api/public/emails/{id}/cancel`) or moved (`PATCH /api/public/emails/{id}`), and is dated when it goes. A time not in the future sends at once.
             * @example 2026-12-01T09:00:00Z
             */
            scheduledAt?: string;
            /** @description Open and click tracking for this message, over the domain’s default: Marketing mail from a domain registered with `tracking` is tracked once its tracking record is verified, Transactional mail only when asked here. Needs the tracking record verified (or, without `TRACKING_LISTEN`, goes through `PUBLIC_URL`); the message’s `tracking` says what applied. `email.opened` and `email.clicked` events follow. */
            tracking?: {
                /** @description An invisible pixel says when the message is opened. */
                opens?: boolean;
                /** @description Links go through the domain’s tracking host, which says when one is followed. */
                clicks?: boolean;
            };
        };
        Email: {
            id: string;
            /** @description `scheduled` (waiting for its `scheduledAt`), `queued` (no attempt yet), `sending`, `deferred` (a recipient waits for a retry), `sent` (every recipient accepted by the next hop, or some and the rest refused), `bounced` (every recipient refused), `failed` (none could be sent), `canceled` (canceled while scheduled). */
            status: "scheduled" | "queued" | "sending" | "sent" | "deferred" | "bounced" | "failed" | "canceled";
            from: string;
            subject: string;
            tags: {
                name: string;
                value: string;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** @description When a scheduled message goes (or went); `null` for one sent at once. */
            scheduledAt: string | null;
            /** @description What is tracked in this message. */
            tracking: {
                opens: boolean;
                clicks: boolean;
            };
            recipients: {
                address: string;
                kind: "to" | "cc" | "bcc";
                status: "scheduled" | "queued" | "sending" | "sent" | "deferred" | "bounced" | "failed" | "suppressed" | "canceled";
                attempts: number;
                nextAttemptAt: string | null;
                events: {
                    type: "sent" | "delivered" | "deferred" | "bounced" | "failed" | "suppressed" | "complained" | "canceled" | "opened" | "clicked";
                    smtpCode: number | null;
                    smtpText: string | null;
                    mxHost: string | null;
                    /** @description For a bounce: `hard` (the address or its domain does not exist: 5.1.x, 5.2.1; the address is suppressed), `soft` (full mailbox 5.2.2, too large, a temporary state), `block` (the receiver refused the sender or the content: 5.7.x, blocklists; the address is good and is not suppressed), `undetermined` (a refusal that says neither). */
                    bounceType?: "hard" | "soft" | "block" | "undetermined";
                    /** @description `clicked`: the link followed. */
                    url?: string;
                    /** @description `opened` and `clicked`: why a machine did it rather than a person (see the `email.opened` webhook); `null`: nothing says so. */
                    machineReason?: ("apple_privacy_protection" | "security_scanner" | "head_request" | "too_soon") | null;
                    /** Format: date-time */
                    at: string;
                }[];
            }[];
        };
        Suppression: {
            address: string;
            /** @description The refusal that put it here (SMTP code and text, the code once), or `unsubscribed`. */
            reason: string;
            /** @description The mail it stops: `all` (a hard bounce, or a recipient who asked to receive nothing), or the one stream the recipient left, the From domain’s type (an unsubscribe from Marketing mail stops Marketing mail only; password resets from the account’s Transactional domains still arrive). */
            scope: "all" | "Marketing" | "Transactional";
            emailId: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        ListedEmail: {
            id: string;
            /** @description As `GET /api/public/emails/{id}` gives it, from its recipients’. */
            status: "scheduled" | "queued" | "sending" | "sent" | "deferred" | "bounced" | "failed" | "canceled";
            from: string;
            /** @description Its first 10 envelope recipients (to, then cc, then bcc); `GET /api/public/emails/{id}` has them all. */
            to: string[];
            subject: string;
            tags: {
                name: string;
                value: string;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** @description When a scheduled message goes (or went); `null` for one sent at once. */
            scheduledAt: string | null;
        };
        EmailContent: {
            id: string;
            subject: string;
            /** @description The header fields in order, unfolded, as stored: every recipient gets these, after the DKIM-Signature added at each attempt. */
            headers: {
                name: string;
                value: string;
            }[];
            /** @description The HTML part, decoded; null without one. */
            html: string | null;
            /** @description The text part, decoded; null without one. */
            text: string | null;
        };
        /** @description mailauth’s verdicts on the message as it would have left, computed at capture. */
        SandboxAuthentication: {
            spf: {
                /** @description `pass`, `fail`, `softfail`, `neutral`, `none`, `temperror` or `permerror`. */
                result: string;
                /** @description The envelope sender’s domain SPF was checked for. */
                domain: string;
                /** @description The address the message is judged as coming from. */
                ip: string;
            };
            dkim: {
                /** @description `pass`, `fail`, `neutral`, `temperror` or `permerror`. */
                result: string;
                /** @description `d=`. */
                domain: string;
                /** @description `s=`. */
                selector: string | null;
                /** @description Whether `d=` aligns with the From domain (DMARC). */
                aligned: boolean;
            }[];
            dmarc: {
                /** @description `pass`, `fail`, `none`, `temperror` or `permerror`. */
                result: string;
                domain: string;
                /** @description The policy that applies: `none`, `quarantine` or `reject`. */
                policy: string | null;
            };
            /** @description The `Authentication-Results` field a receiver would add. */
            header: string;
        };
        CapturedMessageSummary: {
            /** @description The envelope recipient’s id (`rcp_…`). */
            id: string;
            /** @description The message’s id, for `GET /api/public/emails/{id}`. */
            emailId: string;
            from: string;
            /** @description The envelope recipient this copy went to. */
            to: string;
            subject: string;
            /** Format: date-time */
            capturedAt: string;
            authentication: components["schemas"]["SandboxAuthentication"];
        };
        CapturedMessage: {
            /** @description The envelope recipient’s id (`rcp_…`). */
            id: string;
            /** @description The message’s id, for `GET /api/public/emails/{id}`. */
            emailId: string;
            from: string;
            /** @description The envelope recipient this copy went to. */
            to: string;
            subject: string;
            /** Format: date-time */
            capturedAt: string;
            authentication: components["schemas"]["SandboxAuthentication"];
            /** @description The header fields in order, unfolded, as a receiver got them (DKIM-Signature first). */
            headers: {
                name: string;
                value: string;
            }[];
            html: string | null;
            text: string | null;
            /** @description The whole message, signed, CRLF line endings. */
            raw: string;
        };
        ApiKey: {
            /** @description `key_…`: what `DELETE /api/public/keys/{id}` takes. */
            id: string;
            name: string;
            /** @description The key’s first characters, to recognise it; never the key. */
            prefix: string;
            /** @description `["*"]`: the whole API; `["sending"]`: sending and reading what was sent; `["templates", "images"]`: only the routes a web page may call. */
            scopes: ("*" | "sending" | "templates" | "images")[];
            /** @description A sending key’s only domains: it sends from these and reads their messages alone; `null`: not limited. */
            domains: string[] | null;
            /** Format: date-time */
            createdAt: string;
            revokedAt: string | null;
        };
        CreatedApiKey: {
            /** @description `key_…`: what `DELETE /api/public/keys/{id}` takes. */
            id: string;
            name: string;
            /** @description The key’s first characters, to recognise it; never the key. */
            prefix: string;
            /** @description `["*"]`: the whole API; `["sending"]`: sending and reading what was sent; `["templates", "images"]`: only the routes a web page may call. */
            scopes: ("*" | "sending" | "templates" | "images")[];
            /** @description A sending key’s only domains: it sends from these and reads their messages alone; `null`: not limited. */
            domains: string[] | null;
            /** Format: date-time */
            createdAt: string;
            revokedAt: string | null;
            /** @description The key itself, shown only in this answer: store it now. */
            key: string;
        };
        SendEnvelope: {
            data: {
                id: string;
                status: "queued" | "scheduled";
            } | null;
            error: components["schemas"]["ApiError"] | null;
            status: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

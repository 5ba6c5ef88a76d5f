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
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers */
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
                    "application/json": {
                        /** @description At most 100 entries. */
                        domains: {
                            /** @description A fully qualified domain or subdomain name. */
                            domain: string;
                            /** @description `Transactional` or `Marketing` (case-insensitive). */
                            domainType: string;
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description State of a domain or of one record. */
        VerificationStatus: "pending" | "verified";
        DnsRecord: {
            /** @description Host name to publish, relative to the registered domain’s parent: `<token>._domainkey.<label>` or `_dmarc.<label>`. */
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
            /** @description Why the last check did not find the record as expected: `not_found` (no such record), `wrong_type` (the name holds other record types), `wrong_value` (another target, or a DMARC record that is invalid or duplicated), `dns_error` (no definitive answer; the status is kept). `null` when it matched. */
            reason: "not_found" | "wrong_type" | "wrong_value" | "dns_error" | null;
            /** @description What DNS answered instead, when it answered something. */
            found: string | null;
            /** @description What is wrong and what to do, in a sentence. */
            detail: string | null;
            /** @description When this record was last checked; `null` before the first check. */
            lastCheckedAt: string | null;
        };
        DomainResult: {
            /** @description The domain in its ASCII (punycode) form. */
            domain: string;
            status: components["schemas"]["VerificationStatus"];
            /** @description Three DKIM CNAME records, then one DMARC TXT record. */
            records: components["schemas"]["DnsRecord"][];
            /** @description The domain type, in canonical spelling. */
            type: "Transactional" | "Marketing";
            /** @description When DNS was last checked; `null` before the first check. */
            lastCheckedAt: string | null;
            /**
             * Format: date-time
             * @description When the background scheduler checks next; a status request re-checks sooner if the last check is a few seconds old.
             */
            nextCheckAt: string;
        };
        ApiError: {
            /** @description Stable machine-readable code; see the error catalogue. */
            code: "AUTH_MISSING" | "AUTH_INVALID" | "AUTH_SCOPE" | "REQUEST_BAD_JSON" | "REQUEST_INVALID" | "REQUEST_TOO_MANY_ITEMS" | "REQUEST_BODY_TOO_LARGE" | "REQUEST_UNSUPPORTED_MEDIA_TYPE" | "RATE_LIMITED" | "ROUTE_NOT_FOUND" | "SERVICE_UNAVAILABLE" | "INTERNAL_ERROR" | "DOMAIN_EMPTY" | "DOMAIN_TOO_LONG" | "DOMAIN_INVALID_CHARACTER" | "DOMAIN_WILDCARD" | "DOMAIN_IP_ADDRESS" | "DOMAIN_INVALID_LABEL" | "DOMAIN_SINGLE_LABEL" | "DOMAIN_PUBLIC_SUFFIX" | "DOMAIN_RESERVED" | "DOMAIN_TYPE_INVALID" | "DOMAIN_NOT_REGISTERED" | "DOMAIN_TYPE_CONFLICT" | "ACCOUNT_DOMAIN_LIMIT";
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
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;

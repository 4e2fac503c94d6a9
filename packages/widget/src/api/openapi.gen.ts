/**
 * GENERATED from the backend's OpenAPI document (/api/openapi.json) by openapi-typescript: do not edit.
 * Regenerate with `npm run api-types`; the backend's contract test fails while this file is stale.
 * Import the named shapes from ./types.ts.
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness, and whether the upstream is the sandbox
         * @description The process answers. No dependency is checked: readiness is `/readyz`.
         */
        get: operations["getHealthz"];
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
         * Readiness: storage, Redis, the event worker, not shutting down; the upstream beside them
         * @description Each check with its status, latency and last error. Required: storage, Redis (unless REDIS_FALLBACK_INSTANCES), the event worker, not shutting down. The upstream is probed with the configured keys at most every 30 s per instance (within the shared upstream budget; between probes its last result is given) and is not required: while it fails the instance stays ready (200) with the failing upstream check named in `degraded`, since every instance sees the same upstream and each still serves the catalog, cached and derived quotes and status streams.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/crypto-checkout.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The <crypto-checkout> script-tag loader
         * @description Brotli/gzip by Accept-Encoding, ETag, long cache with `?v=<etag>`. It loads its chunks from next to itself.
         */
        get: operations["getWidgetCryptoCheckoutJs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/manifest.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The installed widget's manifest: every file the element can load with its SHA-384
         * @description `{ name, version, loader, algorithm, files: { "<file>": "sha384-…" } }`, as the widget's build wrote it (also in the npm package, `crypto-checkout/manifest.json`). Cached for a day; `/widget/v<version>/manifest.json` is immutable.
         */
        get: operations["getWidgetManifestJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/{chunk}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A chunk of the script-tag bundle (`crypto-checkout-<name>-<hash>.js`)
         * @description Loaded by the loader on demand (the element, the view of each mode); immutable for a year.
         */
        get: operations["getWidgetChunk"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/widget/{version}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file of the installed version at its pinned path (`/widget/v<version>/crypto-checkout.js`)
         * @description The loader, a chunk or `manifest.json` of the installed version, immutable for a year: the path to pin with `integrity` (another version is a 404).
         */
        get: operations["getWidgetVersionFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/refunds/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The refund claim page: what is refunded, a form for the address, later the refund’s state */
        get: operations["getRefundsToken"];
        put?: never;
        /** Gives (or corrects, until sent) the refund address: a form post, or JSON `{ address, memo? }` */
        post: operations["postRefundsToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The merchant's products as shoppers may see them */
        get: operations["getApiProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/products/images/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A product image shipped with the catalog */
        get: operations["getApiProductsImagesFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One product */
        get: operations["getApiProductsId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Countries, currencies and the payment and payout methods of a country
         * @description The country comes from `?country`, else the `cf-ipcountry`, `x-vercel-ip-country`, `x-country` or `accept-language` headers, else DEFAULT_COUNTRY. Methods are those of that country only. ETag, max-age=60, brotli/gzip by Accept-Encoding (compressed once per build of the catalog).
         */
        get: operations["getApiCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/flags/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A country's flag, `de.svg` (ISO 3166-1 alpha-2, lower case)
         * @description SVG from the flag-icons package; brotli/gzip by Accept-Encoding; immutable for a year.
         */
        get: operations["getApiFlagsFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/quotes/buy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price buying crypto with fiat
         * @description Exactly one of fiatAmount/cryptoAmount. Limits are checked before any upstream call. Markup comes from MARKUP; a client-sent markup or price is ignored.
         */
        post: operations["postApiQuotesBuy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/quotes/sell": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price selling crypto for fiat
         * @description The upstream prices sells by fiat amount: a quote for a crypto amount is derived from a reference quote and marked `estimate: true`.
         */
        post: operations["postApiQuotesSell"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/ramp-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A signed ramp widget URL (buy or sell) to embed */
        post: operations["postApiRampSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/checkout-tokens/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What a merchant-minted checkout token charges */
        post: operations["postApiCheckoutTokensVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a payment order for a product or a checkout token
         * @description The same Idempotency-Key with the same body answers the same order (200, Idempotent-Replayed).
         */
        post: operations["postApiOrders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An order's status */
        get: operations["getApiOrdersId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/orders/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-sent `status` events with the OrderView, until a final status */
        get: operations["getApiOrdersIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/orders/{id}/return": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the payment page sends the payer (303 at top level, a postMessage page in an iframe) */
        get: operations["getApiOrdersIdReturn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/deposit-addresses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The customer's permanent deposit address on a chain (created once, then reused) */
        post: operations["postApiDepositAddresses"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/csp-reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A CSP violation report from a storefront page
         * @description The `report-uri` and `report-to` of the policy `crypto-checkout-backend csp` prints. Bodies: `application/csp-report` (one report) or `application/reports+json` (a list; its `csp-violation` reports are read). Logged (no query strings) and counted in `/metrics` as `checkout_csp_violations_total{directive, blocked}`.
         */
        post: operations["postApiCspReports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Payments API events (x-swapped-signature; both payload casings) */
        post: operations["postApiWebhooksPayments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/ramp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ramp order callbacks (`signature` header) */
        post: operations["postApiWebhooksRamp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/upstream-drift": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Upstream answers seen in a shape the backend had to drop parts of (each kind once, with a count) */
        get: operations["getApiAdminUpstreamDrift"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/quote-engine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The quote engine: answers by source, drift between derived and upstream quotes, per combination */
        get: operations["getApiAdminQuoteEngine"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Fulfilment events sent to your systems, with each delivery’s attempts and last error */
        get: operations["getApiAdminEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-sent fulfilment events as they are written (type, id, the body a webhook receiver gets); ?last=N sends the N newest first */
        get: operations["getApiAdminEventsStream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/events/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends an event again (every delivery of it), now */
        post: operations["postApiAdminEventsIdResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/events/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends again every given-up delivery of the events created in a time range, or of all events */
        post: operations["postApiAdminEventsResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/payment-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A payment link: name, internal note, optional image, display currency and amount */
        post: operations["postApiAdminPaymentLinks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/upstream-budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The upstream budget’s use: the limit, tokens held now and at the peak, calls granted, waited, refused */
        get: operations["getApiAdminUpstreamBudget"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/upstream-orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The upstream's orders (every order of the merchant's account, payment links too), with payments and updates */
        get: operations["getApiAdminUpstreamOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The orders this backend made (its ledger), searched, filtered and paged newest first */
        get: operations["getApiAdminOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One order: status history, payments, purchase, every event with every delivery attempt, its audit entries */
        get: operations["getApiAdminOrdersId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/orders/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accepts an underpaid or late-paid order as paid: it becomes paid, and order.paid says who accepted it */
        post: operations["postApiAdminOrdersIdAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/orders/{id}/request-rest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Asks the shopper for the rest of an underpaid order: its view shows the exact remainder and how to pay it */
        post: operations["postApiAdminOrdersIdRequestRest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The webhook endpoints: configured (MERCHANT_WEBHOOK_URL) and made here */
        get: operations["getApiAdminWebhookEndpoints"];
        put?: never;
        /** Adds an endpoint; its Standard Webhooks secret is answered this once */
        post: operations["postApiAdminWebhookEndpoints"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Deletes an endpoint (its pending deliveries are given up) */
        delete: operations["deleteApiAdminWebhookEndpointsId"];
        options?: never;
        head?: never;
        /** Changes an endpoint: its URL, event types, description, or pauses (enabled: false) and resumes it */
        patch: operations["patchApiAdminWebhookEndpointsId"];
        trace?: never;
    };
    "/api/admin/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new secret, answered once; the old one keeps signing beside it for 24 hours */
        post: operations["postApiAdminWebhookEndpointsIdRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends a `webhook.test` event to this endpoint alone */
        post: operations["postApiAdminWebhookEndpointsIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/webhook-endpoints/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sends this endpoint again every event it hears that was created in [from, to) */
        post: operations["postApiAdminWebhookEndpointsIdReplay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This endpoint's deliveries, newest event first, with each attempt */
        get: operations["getApiAdminWebhookEndpointsIdDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/orders/{id}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Requests a refund of an order (or of its excess), in the crypto paid; the shopper gets a claim link */
        post: operations["postApiAdminOrdersIdRefunds"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/refunds/{id}/sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Records a refund paid out (in the upstream’s dashboard) with its transaction hash */
        post: operations["postApiAdminRefundsIdSent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/refunds/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancels a refund not yet sent (what it held may be refunded again) */
        post: operations["postApiAdminRefundsIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Refunds, newest first (or one order’s, oldest first) */
        get: operations["getApiAdminRefunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/credential": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The admin credential this request was made with: its name and scope */
        get: operations["getApiAdminCredential"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log: every admin write (who, what, when, from where, how it ended), newest first */
        get: operations["getApiAdminAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/admin/lockouts/{address}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Lifts the wrong-credential count of one client address (its 429s end at once); audited. `all` lifts every one */
        delete: operations["deleteApiAdminLockoutsAddress"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getApiOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A readable rendering of this document */
        get: operations["getApiDocs"];
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
        Readiness: {
            ready: boolean;
            /** @description the required checks failing now */
            failing: ("storage" | "redis" | "upstreamRamp" | "upstreamPayments" | "outboxWorker" | "warmStart" | "shutdown")[];
            /** @description the checks failing now that are not required (the upstream; Redis with REDIS_FALLBACK_INSTANCES): still ready, serving less */
            degraded: ("storage" | "redis" | "upstreamRamp" | "upstreamPayments" | "outboxWorker" | "warmStart" | "shutdown")[];
            /** @description INSTANCE_NAME */
            instance: string;
            storage: {
                /** @enum {string} */
                kind: "postgresql" | "sqlite" | "memory";
                host?: string;
                database?: string;
            };
            redis: {
                host: string;
            } | null;
            upstream: {
                /** @enum {string} */
                mode: "sandbox" | "live";
                ramp: string;
                payments: string;
            };
            checks: {
                storage: {
                    /** @enum {string} */
                    status: "ok" | "failing" | "skipped";
                    required: boolean;
                    latencyMs: number | null;
                    lastError: {
                        message: string;
                        at: string;
                    } | null;
                    detail?: string;
                    /** @description upstream checks: when the probe answered here was made */
                    checkedAt?: string;
                    ageMs?: number;
                };
                redis: {
                    /** @enum {string} */
                    status: "ok" | "failing" | "skipped";
                    required: boolean;
                    latencyMs: number | null;
                    lastError: {
                        message: string;
                        at: string;
                    } | null;
                    detail?: string;
                    /** @description upstream checks: when the probe answered here was made */
                    checkedAt?: string;
                    ageMs?: number;
                };
                upstreamRamp: {
                    /** @enum {string} */
                    status: "ok" | "failing" | "skipped";
                    required: boolean;
                    latencyMs: number | null;
                    lastError: {
                        message: string;
                        at: string;
                    } | null;
                    detail?: string;
                    /** @description upstream checks: when the probe answered here was made */
                    checkedAt?: string;
                    ageMs?: number;
                };
                upstreamPayments: {
                    /** @enum {string} */
                    status: "ok" | "failing" | "skipped";
                    required: boolean;
                    latencyMs: number | null;
                    lastError: {
                        message: string;
                        at: string;
                    } | null;
                    detail?: string;
                    /** @description upstream checks: when the probe answered here was made */
                    checkedAt?: string;
                    ageMs?: number;
                };
                outboxWorker: {
                    /** @enum {string} */
                    status: "ok" | "failing" | "skipped";
                    required: boolean;
                    latencyMs: number | null;
                    lastError: {
                        message: string;
                        at: string;
                    } | null;
                    detail?: string;
                    /** @description upstream checks: when the probe answered here was made */
                    checkedAt?: string;
                    ageMs?: number;
                };
                warmStart: {
                    /** @enum {string} */
                    status: "ok" | "failing" | "skipped";
                    required: boolean;
                    latencyMs: number | null;
                    lastError: {
                        message: string;
                        at: string;
                    } | null;
                    detail?: string;
                    /** @description upstream checks: when the probe answered here was made */
                    checkedAt?: string;
                    ageMs?: number;
                };
                shutdown: {
                    /** @enum {string} */
                    status: "ok" | "failing" | "skipped";
                    required: boolean;
                    latencyMs: number | null;
                    lastError: {
                        message: string;
                        at: string;
                    } | null;
                    detail?: string;
                    /** @description upstream checks: when the probe answered here was made */
                    checkedAt?: string;
                    ageMs?: number;
                };
            };
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "BAD_REQUEST" | "UNAUTHORIZED" | "TOKEN_INVALID" | "TOKEN_EXPIRED" | "FORBIDDEN" | "NOT_FOUND" | "IDEMPOTENCY_CONFLICT" | "ENDPOINT_READ_ONLY" | "REFUND_STATE" | "REFUND_NOT_ALLOWED" | "ORDER_STATE_CONFLICT" | "PAYLOAD_TOO_LARGE" | "VALIDATION_FAILED" | "AMOUNT_TOO_LOW" | "AMOUNT_TOO_HIGH" | "METHOD_UNAVAILABLE" | "RETURN_URL_NOT_ALLOWED" | "REFUND_TOO_LARGE" | "ADDRESS_INVALID" | "RATE_LIMITED" | "INTERNAL" | "BODY_ALREADY_READ" | "UPSTREAM_ERROR" | "QUOTE_UNAVAILABLE" | "UPSTREAM_BUSY" | "SERVICE_UNAVAILABLE" | "UPSTREAM_TIMEOUT";
                message: string;
                requestId: string;
                issues?: {
                    path: string;
                    message: string;
                }[];
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        OrderRefund: {
            /** @description `ref_…` */
            id: string;
            /** @enum {string} */
            status: "requested" | "address_provided" | "sent" | "cancelled";
            amount: string;
            currency: string;
            network: string;
            /** @description The claim page: where the shopper gives the refund address, then follows it */
            claimUrl: string;
            /** @description Once sent */
            txHash?: string;
        };
        Product: {
            id: string;
            name: string;
            description: string;
            image: string | null;
            /** @description Decimal string, e.g. "49.00" */
            price: string;
            currency: string;
        };
        Catalog: {
            country: string;
            countries: components["schemas"]["Country"][];
            fiats: components["schemas"]["Fiat"][];
            cryptos: components["schemas"]["Crypto"][];
            paymentMethods: components["schemas"]["Method"][];
            payoutMethods: components["schemas"]["Method"][];
            chains: components["schemas"]["Chain"][];
            defaults: {
                country: string;
                fiat: string;
                crypto: string;
                paymentMethod: string | null;
                payoutMethod: string | null;
            };
        };
        Country: {
            code: string;
            name: string;
            currency: string;
        };
        Fiat: {
            code: string;
            name: string;
        };
        Crypto: {
            code: string;
            symbol: string;
            name: string;
            network: string;
            networkName: string;
            /** @enum {string} */
            type: "token" | "coin";
            /** @description EUR */
            networkFee: string;
            icon: string | null;
        };
        Method: {
            /** @description Payment group (buy) or payout slug (sell): what quotes and ramp sessions take */
            id: string;
            name: string;
            feePercent: string;
            /** @description EUR */
            fixedFee: string;
            /** @description EUR */
            min: string | null;
            /** @description EUR */
            max: string | null;
            limits: {
                /** @enum {string} */
                currency: "EUR";
                min: string | null;
                max: string | null;
            };
            /** @description The fixed fee and limits in each currency the method takes that a rate is known for */
            terms: components["schemas"]["MethodTerms"][];
            currencies: string[];
            icon: string | null;
            iconLight: string | null;
            isDefault: boolean;
        };
        MethodTerms: {
            currency: string;
            /** @description The method's fixed fee in `currency` */
            fixedFee: string;
            /** @description The least total a shopper can type in `currency`: buy, pay; sell, receive (fees inside) */
            min: string | null;
            /** @description The most total a shopper can type in `currency` (fees inside) */
            max: string | null;
            /** @description The figures were converted from EUR at a current rate: approximate (show them with ≈) */
            converted: boolean;
        };
        Chain: {
            id: string;
            name: string;
        };
        Quote: {
            /** @enum {string} */
            side: "buy" | "sell";
            /** @enum {string} */
            input: "fiat" | "crypto";
            estimate: boolean;
            fiat: {
                currency: string;
                /** @description What the ramp prices: buy, the amount before fees; sell, the crypto's value before fees */
                amount: string;
                /** @description What the shopper pays (buy) or receives (sell), fees inside: the `fiatAmount` asked for (on a buy, a cent or two less where fee rounding steps over it); for a crypto amount, its true total */
                total: string;
            };
            crypto: {
                currency: string;
                amount: string;
            };
            /** @description Price of 1 crypto unit in fiat */
            rate: string;
            fees: {
                processing: string;
                network: string;
                markup: string;
                total: string;
                currency: string;
            };
            paymentMethod: string;
            paymentGroup: string;
            /**
             * @description `upstream`: the ramp priced this amount. `derived`: computed with the ramp's fee model from its latest quote for the same method, country, fiat and crypto (the same price model; the ramp page quotes the final price).
             * @enum {string}
             */
            source: "upstream" | "derived";
            /** @description When the ramp priced the quote (for a derived quote: the quote it came from) */
            pricedAt: string;
            expiresAt: string;
        };
        BuyQuoteBody: {
            /** @description Payment group from the catalog */
            paymentMethod: string;
            country: string;
            fiat: string;
            crypto: string;
            /** @description What the shopper typed, in `fiat`, fees inside: buy, what they pay in total; sell, what they receive (a decimal string) */
            fiatAmount?: string | number;
            /** @description What the shopper typed, in `crypto` (a decimal string) */
            cryptoAmount?: string | number;
        };
        SellQuoteBody: {
            /** @description Payout method id from the catalog */
            payoutMethod: string;
            country: string;
            fiat: string;
            crypto: string;
            /** @description What the shopper typed, in `fiat`, fees inside: buy, what they pay in total; sell, what they receive (a decimal string) */
            fiatAmount?: string | number;
            /** @description What the shopper typed, in `crypto` (a decimal string) */
            cryptoAmount?: string | number;
        };
        RampSession: {
            /** @description The signed widget URL to load in an iframe */
            url: string;
            /** @description The widget origin, for postMessage checks */
            origin: string;
            expiresAt?: string;
        };
        RampSessionBody: {
            /** @enum {string} */
            side: "buy" | "sell";
            /** @description Payment group (buy) or payout method (sell) from the catalog */
            method?: string;
            /** @description Else from request headers, else DEFAULT_COUNTRY */
            country?: string;
            fiat: string;
            crypto: string;
            /** @description What the shopper pays (buy) or receives (sell), fees inside, as quoted (`Quote.fiat.total`); with a `method`, the page is handed the amount that gives this total */
            fiatAmount?: string | number;
            cryptoAmount?: string | number;
            /** @description Required to buy: where the crypto goes */
            walletAddress?: string;
            /** Format: email */
            email?: string;
            /** @description The shopper's locale (BCP 47): the buy page speaks its language where the ramp has it */
            language?: string;
            /** Format: uri */
            returnUrl?: string;
        };
        VerifiedCheckoutToken: {
            product: {
                name: string;
                description: string;
                image: string | null;
                price: string;
                currency: string;
                reference?: string;
            };
            expiresAt: string;
        };
        CreatedOrder: {
            orderId: string;
            /** @description The upstream's payment page */
            link: string;
            status: components["schemas"]["OrderStatus"];
            expiresAt: string | null;
            /** @description Needed to read the status; shown only in this answer and its replays */
            statusToken: string;
            product: {
                name: string;
                price: string;
                currency: string;
            };
        };
        /** @enum {string} */
        OrderStatus: "pending" | "awaiting_payment" | "underpaid" | "paid" | "overpaid" | "expired" | "failed" | "paid_late" | "cancelled";
        CreateOrderBody: {
            product?: string;
            checkoutToken?: string;
            customer?: {
                name?: string;
                /** Format: email */
                email?: string;
                country?: string;
                lang?: string;
            };
            /** Format: uri */
            returnUrl?: string;
        };
        OrderView: {
            orderId: string;
            status: components["schemas"]["OrderStatus"];
            /** @description paid, overpaid, expired, failed and cancelled are final */
            final: boolean;
            upstreamStatus: string;
            amount: string;
            currency: string;
            paid?: {
                amount: string;
                currency: string;
            };
            returnUrl?: string;
            settlement?: components["schemas"]["OrderSettlement"];
            updatedAt: string;
            /** @description The refunds the merchant made of this order, oldest first (absent: none) */
            refunds?: components["schemas"]["OrderRefund"][];
        };
        /** @description the money in the crypto paid, once known: what is due, what arrived, the rest or the excess */
        OrderSettlement: {
            /** @description what is due, in the crypto the payer picked */
            due: {
                amount: string;
                currency: string;
            };
            /** @description what arrived so far, in that crypto */
            received: {
                amount: string;
                currency: string;
            };
            /** @description the shortfall in that crypto, when underpaid */
            remaining?: string;
            /** @description what arrived beyond what was due, when overpaid */
            excess?: string;
            /** @description ISO time the shopper can still pay the rest until, while the order is not final */
            payBy?: string;
            /** @description how to pay the rest when the merchant asked for it; absent: the order's own payment page */
            payTo?: {
                url?: string;
                address?: string;
                network?: string;
                memo?: string;
            };
        };
        DepositAddress: {
            chain: string;
            address: string;
            /** @description Show it next to the address when there is one */
            memo: string | null;
            currencies: string[];
            /** @description An SVG QR code of the bare address */
            qrSvg: string;
            createdAt: string;
            /** @description false the first time, true afterwards */
            reused: boolean;
        };
        QuoteEngineStats: {
            enabled: boolean;
            /** @description Quotes derived from a combination’s latest upstream quote, since start */
            derived: number;
            /** @description Quotes the upstream priced for a shopper, since start */
            upstream: number;
            /** @description Derived because the upstream could not answer */
            derivedWhileUpstreamDown: number;
            /** @description UPSTREAM_BUSY answers: combinations never priced, with the budget spent */
            busy: number;
            /** @description Upstream calls that checked the total of a fiat amount typed */
            totalChecks: number;
            /** @description Of those, the calls that corrected a first one */
            totalCorrections: number;
            refreshes: number;
            /** @description Derived amounts the sampler priced upstream to compare */
            samples: number;
            /** @description Largest relative difference a sample found (0.001 = 0.1 %) */
            maxDrift: number;
            lastDrift: number | null;
            driftThreshold: number;
            combinations: {
                /** @description side|method|country|fiat|crypto|markup */
                key: string;
                /** @description Age of the upstream quote it derives from */
                ageMs: number | null;
                derived: number;
                upstream: number;
                /** @description Priced by the upstream only (drift, or a quote the model misfits) */
                upstreamOnly: boolean;
                reason: string | null;
                drift: {
                    last: number | null;
                    max: number;
                    samples: number;
                };
            }[];
        };
        ResendGivenUp: {
            /** @description Events with a given-up delivery put back to pending */
            events: number;
            /** @description Deliveries put back to pending, due now */
            deliveries: number;
        };
        AdminOrder: {
            /** @description Our order id (`ord_…`) */
            id: string;
            /** @description Our order id again (the upstream knows it as externalId) */
            externalId: string | null;
            /** @description STANDARD | INVOICE | PAYMENT_ROUTE */
            type: string | null;
            link: string | null;
            /** @enum {string} */
            status: "pending" | "awaiting_payment" | "underpaid" | "paid" | "overpaid" | "expired" | "failed" | "paid_late" | "cancelled";
            upstreamStatus: string | null;
            purchase: {
                name: string | null;
                price: string | null;
                currency: string | null;
                notes: string | null;
            };
            paid: {
                amount: string;
                currency: string;
            } | null;
            customer: {
                id: string | null;
                name: string | null;
                email: string | null;
                country: string | null;
            };
            createdAt: string | null;
            expiresAt: string | null;
            payments: {
                id: string | null;
                amount: string | null;
                currency: string | null;
                network: string | null;
                status: string | null;
                txHash: string | null;
                confirmedAt: string | null;
            }[];
            updates: {
                id: string | null;
                message: string | null;
                at: string | null;
            }[];
            /** @description The upstream's order id (what its payment page shows) */
            upstreamId: string;
            /** @description The price asked */
            amount: string;
            currency: string;
            updatedAt: string;
            customerEmail: string | null;
            /** @description The merchant's reference (a checkout token's or the product id) */
            reference: string | null;
            /** @description Every payment transaction seen, by hash */
            txHashes: string[];
            /** @description Who accepted it as paid (an admin credential), when someone did */
            acceptedBy: string | null;
            /** @description Counted paid though short by `shortfall`, within PAYMENT_TOLERANCE_PERCENT */
            tolerated: {
                shortfall: string;
                tolerancePercent: string;
            } | null;
            /** @description The rest asked of the shopper (request-rest) */
            rest: {
                requestedBy: string;
                at: string;
                remaining: {
                    amount: string;
                    currency: string;
                };
                payBy: string | null;
                payTo: {
                    url?: string;
                    address?: string;
                    network?: string;
                    memo?: string;
                };
            } | null;
            /** @description Money that reached the order after it was finished: recorded and flagged, for you to settle */
            paymentsAfterFinal: {
                amount: string;
                currency: string;
                txHashes: string[];
                at: string;
                upstreamStatus: string;
            }[];
        };
        AdminRefund: {
            /** @description `ref_…` */
            id: string;
            /** @enum {string} */
            status: "requested" | "address_provided" | "sent" | "cancelled";
            amount: string;
            currency: string;
            network: string;
            /** @description The claim page: where the shopper gives the refund address, then follows it */
            claimUrl: string;
            txHash: string | null;
            orderId: string;
            /** @enum {string} */
            of: "order" | "excess";
            reason: string | null;
            address: string | null;
            memo: string | null;
            history: {
                /** @enum {string} */
                status: "requested" | "address_provided" | "sent" | "cancelled";
                at: string;
                by: string;
            }[];
            createdAt: string;
            updatedAt: string;
        };
        WebhookEndpoint: {
            /** @description `we_…` */
            id: string;
            url: string;
            /** @description Event types it receives; ['*'] = all */
            events: string[];
            /** @description false: paused, it receives nothing */
            enabled: boolean;
            description: string | null;
            /**
             * @description config: MERCHANT_WEBHOOK_URL (read only here)
             * @enum {string}
             */
            source: "config" | "api";
            createdAt: string;
        };
        AdminCredential: {
            /** @description The name the credential has in ADMIN_CREDENTIALS (`admin`: the older ADMIN_TOKEN) */
            name: string;
            /**
             * @description read: lists orders, events and engine health; write: also changes state
             * @enum {string}
             */
            scope: "read" | "write";
            /** @description Which token of that name: the first 8 hex characters of its SHA-256, as in ADMIN_CREDENTIALS */
            keyId: string;
        };
        AuditEntry: {
            id: string;
            /** @description When the write was asked for */
            createdAt: string;
            /** @description The admin credential's name */
            credential: string;
            /** @description Which token of that name: the first 8 hex characters of its SHA-256, as in ADMIN_CREDENTIALS (null: an entry from before this was recorded) */
            keyId: string | null;
            /** @enum {string} */
            scope: "read" | "write";
            /** @description Method and path, e.g. `POST /api/admin/payment-links` */
            action: string;
            /** @description What it made or touched (an order id, an event id) */
            target: string | null;
            details: {
                [key: string]: unknown;
            } | null;
            /** @description The client: the connection’s peer, or the client a proxy in TRUSTED_PROXIES named; `unknown` when a fetch handler handed in no address */
            clientIp: string;
            requestId: string;
            /** @description What it was answered: 2xx done, 403 refused (read scope); null: no outcome recorded */
            status: number | null;
            finishedAt: string | null;
        };
        LockoutLifted: {
            /** @description The client address whose count was cleared, or `all` */
            lifted: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @enum {string} */
                        upstream: "sandbox" | "live";
                        /** @description kinds of upstream answers seen in a shape we had to drop parts of */
                        upstreamDrift: number;
                        /** @description largest relative difference between a derived quote and the upstream (0.001 = 0.1 %) */
                        quoteDrift: number;
                    };
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready: every required check passes (`degraded` may name others) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Not ready: `failing` names the required checks that fail, SERVICE_UNAVAILABLE */
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
    getWidgetCryptoCheckoutJs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getWidgetManifestJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The manifest */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description Not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getWidgetChunk: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                chunk: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getWidgetVersionFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                version: string;
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript, or the manifest as JSON */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description Not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getRefundsToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The claim token (`ref_….secret`) */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page (strict CSP, no script) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description No refund has this link */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    postRefundsToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The claim token (`ref_….secret`) */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON: the refund, its address received */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderRefund"];
                };
            };
            /** @description A form post: back to the page, which shows the address received */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ADDRESS_INVALID, VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All products */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        products: components["schemas"]["Product"][];
                    };
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiProductsImagesFile: {
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
            /** @description The image */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                };
            };
            /** @description Not modified (If-None-Match) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiProductsId: {
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
            /** @description The product */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiCatalog: {
        parameters: {
            query?: {
                /** @description ISO 3166 alpha-2; else taken from request headers */
                country?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Catalog"];
                };
            };
            /** @description Not modified (If-None-Match) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_BUSY, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiFlagsFile: {
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
            /** @description The flag */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    postApiQuotesBuy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BuyQuoteBody"];
            };
        };
        responses: {
            /** @description The quote */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quote"];
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED, METHOD_UNAVAILABLE, AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description QUOTE_UNAVAILABLE, UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_BUSY, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiQuotesSell: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SellQuoteBody"];
            };
        };
        responses: {
            /** @description The quote */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quote"];
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED, METHOD_UNAVAILABLE, AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description QUOTE_UNAVAILABLE, UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_BUSY, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiRampSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RampSessionBody"];
            };
        };
        responses: {
            /** @description The signed URL */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RampSession"];
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED, METHOD_UNAVAILABLE, AMOUNT_TOO_LOW, AMOUNT_TOO_HIGH, RETURN_URL_NOT_ALLOWED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_BUSY, SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiCheckoutTokensVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description The product the token stands for */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifiedCheckoutToken"];
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_INVALID, TOKEN_EXPIRED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    postApiOrders: {
        parameters: {
            query?: never;
            header: {
                /** @description 8 to 128 printable ASCII characters; a missing one is 400, a malformed one 422 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrderBody"];
            };
        };
        responses: {
            /** @description Replay of the same key and body */
            200: {
                headers: {
                    /** @description true */
                    "Idempotent-Replayed"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedOrder"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedOrder"];
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_INVALID, TOKEN_EXPIRED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED, RETURN_URL_NOT_ALLOWED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiOrdersId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Or `?token=` */
                "X-Status-Token"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderView"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiOrdersIdEvents: {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiOrdersIdReturn: {
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
            /** @description A page that tells the embedding widget */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Redirect to the merchant's returnUrl with orderId and status */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    postApiDepositAddresses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    customerToken: string;
                    chain: string;
                };
            };
        };
        responses: {
            /** @description The address */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DepositAddress"];
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOKEN_INVALID, TOKEN_EXPIRED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiCspReports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/csp-report": Record<string, never>;
                "application/reports+json": unknown[];
            };
        };
        responses: {
            /** @description Received */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    postApiWebhooksPayments: {
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
            /** @description Applied (or already applied) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /**
                         * @description An event already applied
                         * @enum {boolean}
                         */
                        duplicate?: true;
                        /**
                         * @description An order this backend did not create, or no order status
                         * @enum {boolean}
                         */
                        ignored?: true;
                    };
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    postApiWebhooksRamp: {
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
            /** @description Applied (or already applied) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /**
                         * @description An event already applied
                         * @enum {boolean}
                         */
                        duplicate?: true;
                        /**
                         * @description An order this backend did not create, or no order status
                         * @enum {boolean}
                         */
                        ignored?: true;
                    };
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiAdminUpstreamDrift: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Drift seen since start */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        drift: {
                            path: string;
                            field: string;
                            detail: string;
                            firstSeenAt: string;
                            lastSeenAt: string;
                            count: number;
                        }[];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminQuoteEngine: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counters since start */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteEngineStats"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminEvents: {
        parameters: {
            query?: {
                orderId?: string;
                state?: "pending" | "delivered" | "failed";
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Events, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            id: string;
                            type: string;
                            orderId: string | null;
                            createdAt: string;
                            payload: {
                                [key: string]: unknown;
                            };
                            deliveries: {
                                target: string;
                                /** @enum {string} */
                                state: "pending" | "delivered" | "failed";
                                attempts: number;
                                nextAttemptAt: string;
                                lastStatus: number | null;
                                lastError: string | null;
                                lastAttemptAt: string | null;
                                deliveredAt: string | null;
                            }[];
                        }[];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminEventsStream: {
        parameters: {
            query?: {
                /** @description First send the N newest events (at most 200) */
                last?: string;
                /** @description Only these event types, comma-separated (order.paid,order.expired) */
                events?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminEventsIdResend: {
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
            /** @description The event, its deliveries pending again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        type: string;
                        orderId: string | null;
                        createdAt: string;
                        payload: {
                            [key: string]: unknown;
                        };
                        deliveries: {
                            target: string;
                            /** @enum {string} */
                            state: "pending" | "delivered" | "failed";
                            attempts: number;
                            nextAttemptAt: string;
                            lastStatus: number | null;
                            lastError: string | null;
                            lastAttemptAt: string | null;
                            deliveredAt: string | null;
                        }[];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminEventsResend: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Events created at or after this time (ISO or epoch) */
                    from?: string;
                    /** @description Events created before this time (ISO or epoch) */
                    to?: string;
                    /**
                     * @description Every given-up event, whenever created (instead of a range)
                     * @enum {boolean}
                     */
                    all?: true;
                };
            };
        };
        responses: {
            /** @description How many were put back */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResendGivenUp"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminPaymentLinks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    note?: string;
                    /** Format: uri */
                    imageUrl?: string;
                    currency: string;
                    amount: string | number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The upstream's order id */
                        orderId: string;
                        /** @description The payment page to share */
                        link: string;
                        expiresAt: string | null;
                    };
                };
            };
            /** @description BAD_REQUEST */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminUpstreamBudget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counters since start */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description null: this app spends no upstream budget */
                        budget: {
                            /** @description The limit: upstream calls allowed in any one-second window (UPSTREAM_BUDGET, default 90) */
                            perSecond: number;
                            /** @description Tokens held now: calls in flight, plus calls finished less than a window ago (with REDIS_URL: this instance’s calls in flight) */
                            inWindow: number;
                            /** @description The most tokens held at once since start (never above perSecond) */
                            maxInWindow: number;
                            /** @description Calls upstream right now */
                            inFlight: number;
                            /** @description Calls waiting for a token right now */
                            queued: number;
                            /** @description Calls let through since start */
                            granted: number;
                            /** @description Calls that had to wait for a token since start */
                            waited: number;
                            /** @description Calls refused with UPSTREAM_BUSY since start (the budget spent) */
                            refused: number;
                            /** @description Times the upstream answered 429 anyway (should stay 0) */
                            throttledByUpstream: number;
                        } | null;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminUpstreamOrders: {
        parameters: {
            query?: {
                page?: string;
                limit?: string;
                searchId?: string;
                startDate?: string;
                endDate?: string;
                type?: "STANDARD" | "INVOICE" | "PAYMENT_ROUTE";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        orders: {
                            /** @description The upstream's order id */
                            id: string;
                            /** @description Our orderId for orders this backend created */
                            externalId: string | null;
                            /** @description STANDARD | INVOICE | PAYMENT_ROUTE */
                            type: string | null;
                            link: string | null;
                            /** @enum {string|null} */
                            status: "pending" | "awaiting_payment" | "underpaid" | "paid" | "overpaid" | "expired" | "failed" | "paid_late" | "cancelled" | null;
                            upstreamStatus: string | null;
                            purchase: {
                                name: string | null;
                                price: string | null;
                                currency: string | null;
                                notes: string | null;
                            };
                            paid: {
                                amount: string;
                                currency: string;
                            } | null;
                            customer: {
                                id: string | null;
                                name: string | null;
                                email: string | null;
                                country: string | null;
                            };
                            createdAt: string | null;
                            expiresAt: string | null;
                            payments: {
                                id: string | null;
                                amount: string | null;
                                currency: string | null;
                                status: string | null;
                                txHash: string | null;
                                confirmedAt: string | null;
                            }[];
                            updates: {
                                id: string | null;
                                message: string | null;
                                at: string | null;
                            }[];
                        }[];
                        pagination: {
                            page: number;
                            limit: number;
                            totalPages: number | null;
                            totalItems: number | null;
                        };
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminOrders: {
        parameters: {
            query?: {
                /** @description Our id, the upstream’s, a tx hash, an e-mail or a reference */
                q?: string;
                status?: string | string[];
                /** @description Created at or after (ISO date or date-time) */
                from?: string;
                /** @description Created before (a bare date: up to the end of that day) */
                to?: string;
                limit?: string;
                /** @description The previous page’s nextCursor */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        orders: components["schemas"]["AdminOrder"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminOrdersId: {
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
            /** @description The order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        order: {
                            /** @description Our order id (`ord_…`) */
                            id: string;
                            /** @description Our order id again (the upstream knows it as externalId) */
                            externalId: string | null;
                            /** @description STANDARD | INVOICE | PAYMENT_ROUTE */
                            type: string | null;
                            link: string | null;
                            /** @enum {string} */
                            status: "pending" | "awaiting_payment" | "underpaid" | "paid" | "overpaid" | "expired" | "failed" | "paid_late" | "cancelled";
                            upstreamStatus: string | null;
                            purchase: {
                                name: string | null;
                                price: string | null;
                                currency: string | null;
                                notes: string | null;
                            };
                            paid: {
                                amount: string;
                                currency: string;
                            } | null;
                            customer: {
                                id: string | null;
                                name: string | null;
                                email: string | null;
                                country: string | null;
                            };
                            createdAt: string | null;
                            expiresAt: string | null;
                            payments: {
                                id: string | null;
                                amount: string | null;
                                currency: string | null;
                                network: string | null;
                                status: string | null;
                                txHash: string | null;
                                confirmedAt: string | null;
                            }[];
                            updates: {
                                id: string | null;
                                message: string | null;
                                at: string | null;
                            }[];
                            /** @description The upstream's order id (what its payment page shows) */
                            upstreamId: string;
                            /** @description The price asked */
                            amount: string;
                            currency: string;
                            updatedAt: string;
                            customerEmail: string | null;
                            /** @description The merchant's reference (a checkout token's or the product id) */
                            reference: string | null;
                            /** @description Every payment transaction seen, by hash */
                            txHashes: string[];
                            /** @description Who accepted it as paid (an admin credential), when someone did */
                            acceptedBy: string | null;
                            /** @description Counted paid though short by `shortfall`, within PAYMENT_TOLERANCE_PERCENT */
                            tolerated: {
                                shortfall: string;
                                tolerancePercent: string;
                            } | null;
                            /** @description The rest asked of the shopper (request-rest) */
                            rest: {
                                requestedBy: string;
                                at: string;
                                remaining: {
                                    amount: string;
                                    currency: string;
                                };
                                payBy: string | null;
                                payTo: {
                                    url?: string;
                                    address?: string;
                                    network?: string;
                                    memo?: string;
                                };
                            } | null;
                            /** @description Money that reached the order after it was finished: recorded and flagged, for you to settle */
                            paymentsAfterFinal: {
                                amount: string;
                                currency: string;
                                txHashes: string[];
                                at: string;
                                upstreamStatus: string;
                            }[];
                            statusHistory: {
                                status: string;
                                upstreamStatus: string;
                                at: string;
                                source: string;
                            }[];
                            /** @description The refunds of this order, oldest first */
                            refunds: components["schemas"]["AdminRefund"][];
                            /** @description What was refunded in total, in the crypto paid */
                            refunded: {
                                /** @description Every refund not cancelled */
                                requested: string;
                                /** @description The refunds recorded sent */
                                sent: string;
                                currency: string | null;
                            };
                        };
                        events: {
                            id: string;
                            type: string;
                            createdAt: string;
                            /** @enum {string} */
                            state: "pending" | "delivered" | "failed";
                            deliveries: {
                                endpointId: string;
                                /** @enum {string} */
                                state: "pending" | "delivered" | "failed";
                                nextAttemptAt: string;
                                attempts: {
                                    at: string;
                                    status: number | null;
                                    error: string | null;
                                    responseExcerpt: string | null;
                                }[];
                            }[];
                        }[];
                        audit: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminOrdersIdAccept: {
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
            /** @description The order as it now is (the same when asked again) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        order: components["schemas"]["AdminOrder"];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ORDER_STATE_CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminOrdersIdRequestRest: {
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
            /** @description The order as it now is (the same when asked again) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        order: components["schemas"]["AdminOrder"];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ORDER_STATE_CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every endpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoints: components["schemas"]["WebhookEndpoint"][];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    url: string;
                    /** @description Event types, or ['*'] for all */
                    events: ("*" | "order.created" | "order.paid" | "order.overpaid" | "order.underpaid" | "order.expired" | "order.failed" | "order.paid_late" | "order.cancelled" | "order.rest_requested" | "order.payment_after_final" | "ramp.completed" | "ramp.cancelled" | "deposit.received" | "refund.requested" | "refund.address_provided" | "refund.sent" | "refund.cancelled")[];
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                        secret: string;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteApiAdminWebhookEndpointsId: {
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
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENDPOINT_READ_ONLY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchApiAdminWebhookEndpointsId: {
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
                    /** Format: uri */
                    url?: string;
                    /** @description Event types, or ['*'] for all */
                    events?: ("*" | "order.created" | "order.paid" | "order.overpaid" | "order.underpaid" | "order.expired" | "order.failed" | "order.paid_late" | "order.cancelled" | "order.rest_requested" | "order.payment_after_final" | "ramp.completed" | "ramp.cancelled" | "deposit.received" | "refund.requested" | "refund.address_provided" | "refund.sent" | "refund.cancelled")[];
                    enabled?: boolean;
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENDPOINT_READ_ONLY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminWebhookEndpointsIdRotateSecret: {
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
            /** @description The new secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The Standard Webhooks secret: shown this once */
                        secret: string;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENDPOINT_READ_ONLY */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminWebhookEndpointsIdTest: {
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
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        eventId: string;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminWebhookEndpointsIdReplay: {
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
                    from: string;
                    to: string;
                };
            };
        };
        responses: {
            /** @description Queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        queued: number;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminWebhookEndpointsIdDeliveries: {
        parameters: {
            query?: {
                limit?: string;
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: {
                            eventId: string;
                            type: string;
                            orderId: string | null;
                            createdAt: string;
                            /** @enum {string} */
                            state: "pending" | "delivered" | "failed";
                            /** @enum {string} */
                            eventState: "pending" | "delivered" | "failed";
                            nextAttemptAt: string;
                            attempts: {
                                at: string;
                                status: number | null;
                                error: string | null;
                                responseExcerpt: string | null;
                            }[];
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminOrdersIdRefunds: {
        parameters: {
            query?: never;
            header: {
                /** @description 8 to 128 printable ASCII characters; the same key and body answer the same refund */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description order: all or part of what was paid; excess: what arrived beyond what was due
                     * @default order
                     * @enum {string}
                     */
                    of?: "order" | "excess";
                    /** @description In the crypto paid; absent: all that may still be refunded (of the order, or of the excess) */
                    amount?: string | number;
                    /** @description Shown to the shopper on the claim page */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Replay of the same key and body */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminRefund"];
                };
            };
            /** @description Requested: refund.requested is written */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminRefund"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description REFUND_NOT_ALLOWED, IDEMPOTENCY_CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description REFUND_TOO_LARGE */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminRefundsIdSent: {
        parameters: {
            query?: never;
            header: {
                /** @description 8 to 128 printable ASCII characters; the same key and body answer the same refund */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The transaction that paid the refund out (from the upstream’s dashboard) */
                    txHash: string;
                };
            };
        };
        responses: {
            /** @description Sent: refund.sent is written */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminRefund"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description REFUND_STATE, IDEMPOTENCY_CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postApiAdminRefundsIdCancel: {
        parameters: {
            query?: never;
            header: {
                /** @description 8 to 128 printable ASCII characters; the same key and body answer the same refund */
                "Idempotency-Key": string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Cancelled: refund.cancelled is written */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminRefund"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description REFUND_STATE, IDEMPOTENCY_CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminRefunds: {
        parameters: {
            query?: {
                orderId?: string;
                limit?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Refunds */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        refunds: components["schemas"]["AdminRefund"][];
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_ERROR */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description UPSTREAM_TIMEOUT */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiAdminCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credential */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminCredential"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiAdminAudit: {
        parameters: {
            query?: {
                limit?: string;
                credential?: string;
                before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["AuditEntry"][];
                        /** @description Pass as `before` for the next (older) page; null at the end */
                        next: string | null;
                    };
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    deleteApiAdminLockoutsAddress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A client address as the audit log and the warning lines name it, `unknown`, or `all` */
                address: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lifted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LockoutLifted"];
                };
            };
            /** @description UNAUTHORIZED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description VALIDATION_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiOpenapiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OpenAPI 3.1 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getApiDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description INTERNAL */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description SERVICE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
}

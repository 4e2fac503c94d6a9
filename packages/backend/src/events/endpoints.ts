/**
 * Webhook endpoints as data: the merchant's receivers, each with its URL, the event types it hears (`['*']` =
 * all), its own Standard Webhooks secret (rotatable with an overlap, like MERCHANT_WEBHOOK_SECRET's), enabled or
 * paused. Endpoints made through the admin API live in the store (collection `endpoints`); each URL of
 * MERCHANT_WEBHOOK_URL is an endpoint too (source `config`: all events, its secret MERCHANT_WEBHOOK_SECRET, read
 * only). A delivery's target is an API endpoint's id, or a configured URL itself (as before endpoints were data,
 * so deliveries written then still go out).
 *
 * A paused endpoint is given nothing: events written while it is paused get no delivery to it (no catch-up on
 * resuming: a replay of the range sends them), and a delivery still pending when it was paused is given up when
 * its turn comes. Per-order ordering holds per endpoint (outbox.ts); an event's `sequence` is its place among all
 * its order's events, so an endpoint that filters sees gaps, never a reordering.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { acceptedSecrets, type Keyring } from '../secrets/keyring.ts';
import type { Store } from '../store/store.ts';
import { type FulfilmentEvent, fulfilmentEventTypes } from './fulfilment-events.ts';

/** What an endpoint may subscribe to: every event type, or `*`. */
export const endpointEventFilters = ['*', ...fulfilmentEventTypes] as const;

export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  description: string | null;
  source: 'config' | 'api';
  createdAt: string;
}

/** What the store keeps of an API endpoint: the view plus its secrets (never answered after creation). */
interface EndpointRecord extends Omit<Endpoint, 'source'> {
  updatedAt: string;
  secret: { current: string; previous: string[]; previousUntil: number | null };
}

/** Where and how one delivery target is sent (undefined: the endpoint was deleted). */
export interface ResolvedTarget {
  endpointId: string;
  url: string;
  /** Undefined: no secret to sign with (MERCHANT_WEBHOOK_SECRET unset). */
  secrets: Keyring | undefined;
  enabled: boolean;
}

/** How long a rotated endpoint secret keeps signing beside the new one. */
export const endpointSecretOverlapMs = 24 * 60 * 60 * 1000;

export const newEndpointSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** A configured URL's endpoint id: stable across restarts and instances. */
export const configEndpointId = (url: string) =>
  `we_cfg_${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;

export const hears = (events: readonly string[], type: string) =>
  events.includes('*') || events.includes(type);

export interface EndpointsOptions {
  store: Store;
  clock: Clock;
  /** MERCHANT_WEBHOOK_URL's URLs, and their secret. */
  configured: readonly string[];
  configuredSecrets: () => Keyring | undefined;
}

export function createEndpoints(options: EndpointsOptions) {
  const { store, clock } = options;
  const startedAt = new Date(clock.now()).toISOString();
  const iso = () => new Date(clock.now()).toISOString();
  const configured = (): Endpoint[] =>
    options.configured.map((url) => ({
      id: configEndpointId(url),
      url,
      events: ['*'],
      enabled: true,
      description: 'MERCHANT_WEBHOOK_URL',
      source: 'config',
      createdAt: startedAt,
    }));
  const view = ({ secret: _secret, updatedAt: _updated, ...record }: EndpointRecord): Endpoint => ({
    ...record,
    source: 'api',
  });
  const keyringOf = (record: EndpointRecord): Keyring => ({
    current: record.secret.current,
    previous: record.secret.previous,
    previousUntil: record.secret.previousUntil ?? undefined,
  });

  const endpoints = {
    async list(): Promise<Endpoint[]> {
      const stored = await store.values<EndpointRecord>('endpoints');
      return [...configured(), ...stored.map(view)];
    },

    async get(id: string): Promise<Endpoint | undefined> {
      const found = configured().find((endpoint) => endpoint.id === id);
      if (found) return found;
      const record = await store.get<EndpointRecord>('endpoints', id);
      return record && view(record);
    },

    isConfigured: (id: string) => configured().some((endpoint) => endpoint.id === id),

    /** The target string deliveries to this endpoint carry. */
    targetOf: (endpoint: Endpoint) => (endpoint.source === 'config' ? endpoint.url : endpoint.id),

    async create(input: { url: string; events: string[]; description?: string | undefined }) {
      const secret = newEndpointSecret();
      const at = iso();
      const record: EndpointRecord = {
        id: `we_${randomBytes(12).toString('hex')}`,
        url: input.url,
        events: [...new Set(input.events)],
        enabled: true,
        description: input.description ?? null,
        createdAt: at,
        updatedAt: at,
        secret: { current: secret, previous: [], previousUntil: null },
      };
      await store.set('endpoints', record.id, record);
      return { endpoint: view(record), secret };
    },

    /** Changes an API endpoint in a transaction; undefined when there is none of that id. */
    async update(
      id: string,
      change: (record: EndpointRecord) => void,
    ): Promise<{ endpoint: Endpoint; record: EndpointRecord } | undefined> {
      return store.transaction(async (tx) => {
        const record = await tx.get<EndpointRecord>('endpoints', id);
        if (!record) return undefined;
        change(record);
        record.updatedAt = iso();
        await tx.set('endpoints', id, record);
        return { endpoint: view(record), record };
      });
    },

    async patch(
      id: string,
      patch: {
        url?: string | undefined;
        events?: string[] | undefined;
        enabled?: boolean | undefined;
        description?: string | null | undefined;
      },
    ) {
      const done = await endpoints.update(id, (record) => {
        if (patch.url !== undefined) record.url = patch.url;
        if (patch.events !== undefined) record.events = [...new Set(patch.events)];
        if (patch.enabled !== undefined) record.enabled = patch.enabled;
        if (patch.description !== undefined) record.description = patch.description;
      });
      return done?.endpoint;
    },

    async remove(id: string): Promise<boolean> {
      if (!(await store.get<EndpointRecord>('endpoints', id))) return false;
      await store.delete('endpoints', id);
      return true;
    },

    /** A new current secret; the old one keeps signing beside it for `endpointSecretOverlapMs`. */
    async rotate(id: string): Promise<string | undefined> {
      const secret = newEndpointSecret();
      const now = clock.now();
      const done = await endpoints.update(id, (record) => {
        const stillOpen = record.secret.previousUntil !== null && now < record.secret.previousUntil;
        record.secret = {
          current: secret,
          previous: [record.secret.current, ...(stillOpen ? record.secret.previous : [])],
          previousUntil: now + endpointSecretOverlapMs,
        };
      });
      return done ? secret : undefined;
    },

    /** The delivery targets an event is written with (in the change's transaction `via`): who hears its type. */
    async targetsFor(event: FulfilmentEvent, via: Store = store): Promise<string[]> {
      const stored = await via.values<EndpointRecord>('endpoints');
      return [
        ...options.configured,
        ...stored
          .filter((record) => record.enabled && hears(record.events, event.type))
          .map((record) => record.id),
      ];
    },

    /** How to send to a delivery's target: a configured URL, or an API endpoint by id. */
    async resolve(target: string): Promise<ResolvedTarget | undefined> {
      if (!target.startsWith('we_'))
        return {
          endpointId: configEndpointId(target),
          url: target,
          secrets: options.configuredSecrets(),
          enabled: true,
        };
      const record = await store.get<EndpointRecord>('endpoints', target);
      if (!record) return undefined;
      return { endpointId: record.id, url: record.url, secrets: keyringOf(record), enabled: record.enabled };
    },

    /** Every secret an endpoint signs with now (for tests of the overlap; never answered by the API). */
    async signingSecrets(id: string): Promise<string[]> {
      const record = await store.get<EndpointRecord>('endpoints', id);
      return record ? acceptedSecrets(keyringOf(record), clock.now()) : [];
    },
  };
  return endpoints;
}

export type Endpoints = ReturnType<typeof createEndpoints>;

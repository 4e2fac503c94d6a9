/** What the whole sandbox shares: the clock, settings, injected faults, delivery log and reset hooks. */
import { SettableClock } from './clock.ts';
import type { FaultRule } from './controls/faults.ts';
import type { Delivery } from './deliveries.ts';

export interface SandboxSettings {
  /** `get_payment_methods` without a country: keyed by country (what the live service does) or a flat list. */
  paymentMethodsShape: 'by-country' | 'flat';
  /** Payments webhooks: the newer camelCase payload or the older snake_case one. */
  webhookCasing: 'camel' | 'snake';
  /** Requests per second allowed on /api/v1/merchant/ per merchant key (the real limit is 100). */
  rampRateLimit: number;
  /** Delays between webhook/callback attempts; the real service waits minutes, the sandbox seconds. */
  retryDelaysMs: number[];
  /** How long a new payment order stays open. */
  orderTtlMs: number;
  /** Payment order ids: `A5WX6BN6CCPS`, or with the older `SP-` prefix everywhere (facts.md §5). */
  orderIds: 'plain' | 'sp-prefixed';
  /** The order list's `searchId`: a case-insensitive substring of the id or externalId, or the exact id. */
  searchIdMatch: 'contains' | 'exact';
  /** Per-currency `base_fee` maps carry one non-numeric entry (`"XXX": "n/a"`), as a careless upstream might. */
  baseFeeJunkEntry: boolean;
  /** `get_payment_methods?country=`: honoured, or ignored as an undocumented filter may be (the whole list). */
  paymentMethodsCountryFilter: 'honoured' | 'ignored';
  /** `get_supported`: the documented `supported_*` lists, or the same lists renamed (shape drift). */
  supportedShape: 'documented' | 'renamed';
  /** Sell quotes: every described field, or only the first seven the docs' samples carry (no `_local`, fees). */
  sellQuoteFields: 'all' | 'documented-seven';
  /** Sell quotes' `processing_fee` and `markup_fiat_value`: in the local fiat, or in EUR (as facts.md says). */
  sellFeeCurrency: 'local' | 'eur';
}

export const defaultSettings = (): SandboxSettings => ({
  paymentMethodsShape: 'by-country',
  webhookCasing: 'camel',
  rampRateLimit: 100,
  retryDelaysMs: [500, 1000, 2000, 4000, 8000],
  orderTtlMs: 30 * 60 * 1000,
  orderIds: 'plain',
  searchIdMatch: 'contains',
  baseFeeJunkEntry: false,
  paymentMethodsCountryFilter: 'honoured',
  supportedShape: 'documented',
  sellQuoteFields: 'all',
  sellFeeCurrency: 'local',
});

export interface SandboxOptions {
  /** Public URL where the sandbox is mounted, e.g. `http://localhost:8787/sandbox`; links are built on it. */
  baseUrl: string;
  /** Where each merchant's payments webhooks go until a control call changes it (`npm start`: the backend). */
  defaultWebhookUrl?: string | undefined;
  settings?: Partial<SandboxSettings>;
}

/** Identifies one part's state in `SandboxState.part()`; declare it once as a module constant. */
export interface PartKey<T> {
  readonly name: string;
  create(state: SandboxState): T;
}

export class SandboxState {
  readonly clock = new SettableClock();
  readonly baseUrl: string;
  readonly defaultWebhookUrl: string | undefined;
  settings: SandboxSettings;
  faults: FaultRule[] = [];
  deliveries: Delivery[] = [];
  /** Per-merchant payments webhook destinations set through the controls. */
  readonly webhookUrls = new Map<string, string>();
  readonly #initialSettings: Partial<SandboxSettings>;
  readonly #resetHooks: Array<() => void> = [];
  readonly #parts = new Map<PartKey<unknown>, unknown>();

  constructor(options: SandboxOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.defaultWebhookUrl = options.defaultWebhookUrl;
    this.#initialSettings = options.settings ?? {};
    this.settings = { ...defaultSettings(), ...this.#initialSettings };
  }

  now(): number {
    return this.clock.now();
  }

  webhookUrlFor(merchantId: string): string | undefined {
    return this.webhookUrls.get(merchantId) ?? this.defaultWebhookUrl;
  }

  /**
   * The one instance of a part's own state (e.g. the payments ledger) for this sandbox, created on first use.
   * Sub-apps built separately from the same state (API, pages, controls) then share it without globals.
   */
  part<T>(key: PartKey<T>): T {
    if (!this.#parts.has(key)) this.#parts.set(key, key.create(this));
    return this.#parts.get(key) as T;
  }

  /** Lets each part of the sandbox drop its own state on reset. */
  onReset(hook: () => void): void {
    this.#resetHooks.push(hook);
  }

  reset(): void {
    this.clock.reset();
    this.settings = { ...defaultSettings(), ...this.#initialSettings };
    this.faults = [];
    this.deliveries = [];
    this.webhookUrls.clear();
    for (const hook of this.#resetHooks) hook();
  }
}

/**
 * What the whole sandbox shares: the clock, the settings, and its own parts (fault rules, deliveries, background
 * work), plus each room's part (the payments ledger, the ramp store) made on first use and dropped on reset.
 */
import { Background } from './background.ts';
import { SettableClock } from './clock.ts';
import { FaultBook } from './controls/faults.ts';
import { Deliveries } from './deliveries.ts';
import {
  defaultSettings,
  type SandboxSettings,
  type SettingsPatch,
  settingsPatchSchema,
} from './settings.ts';

export interface SandboxOptions {
  /** Public URL where the sandbox is mounted, e.g. `http://localhost:8787/sandbox`; links are built on it. */
  baseUrl: string;
  /** Where each merchant's payments webhooks go until a control call changes it (`npm start`: the backend). */
  defaultWebhookUrl?: string | undefined;
  /** Settings other than the defaults, checked against the settings schema (an unknown or bad one throws). */
  settings?: Partial<SandboxSettings>;
  /**
   * How webhooks are sent (default the global fetch). A Cloudflare Worker cannot fetch its own hostname, so a
   * backend on Workers hands the sandbox one that serves its own URLs in process.
   */
  fetch?: typeof fetch | undefined;
}

/** A part of the state kept across restarts by the standalone command (persistence.ts): plain JSON out and in. */
export interface Persisted {
  save(): unknown;
  load(data: unknown): void;
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
  /** How webhooks are sent (SandboxOptions.fetch). */
  readonly fetch: typeof fetch | undefined;
  settings: SandboxSettings;
  /** The fault rules in force (`/control/faults`); the fault middleware takes from it. */
  readonly faults = new FaultBook();
  /** Webhooks and callbacks sent, with every attempt; rooms send through it. */
  readonly deliveries: Deliveries;
  /** What the sandbox will do later in real time (retries, follow-up statuses). */
  readonly background = new Background();
  /** Per-merchant payments webhook destinations set through the controls. */
  readonly webhookUrls = new Map<string, string>();
  readonly #initialSettings: SettingsPatch;
  readonly #resetHooks: Array<() => void> = [];
  readonly #parts = new Map<PartKey<unknown>, unknown>();
  readonly #persisted = new Map<string, Persisted>();
  readonly #changeListeners: Array<() => void> = [];

  constructor(options: SandboxOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.defaultWebhookUrl = options.defaultWebhookUrl;
    this.fetch = options.fetch;
    this.#initialSettings = settingsPatchSchema.parse(options.settings ?? {});
    this.settings = { ...defaultSettings(), ...this.#initialSettings };
    this.deliveries = new Deliveries(this);
  }

  now(): number {
    return this.clock.now();
  }

  /** Changes some settings (already checked against `settingsPatchSchema`); the rest keep their values. */
  updateSettings(patch: SettingsPatch): SandboxSettings {
    this.settings = { ...this.settings, ...patch };
    return this.settings;
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

  /** Registers what a part keeps across restarts (orders, routes, …) under a name of the snapshot. */
  persist(name: string, part: Persisted): void {
    this.#persisted.set(name, part);
  }

  /** Called by a part after a change worth keeping; the standalone command writes the snapshot. */
  changed(): void {
    for (const listener of this.#changeListeners) listener();
  }

  onChange(listener: () => void): void {
    this.#changeListeners.push(listener);
  }

  /** Everything kept across restarts, as plain JSON: each persisted part's own, and the webhook destinations. */
  snapshot(): Record<string, unknown> {
    const parts: Record<string, unknown> = { webhookUrls: [...this.webhookUrls] };
    for (const [name, part] of this.#persisted) parts[name] = part.save();
    return parts;
  }

  /** Takes back a snapshot: parts are created first (so each registers), then each loads its own. */
  restore(snapshot: Record<string, unknown>, keys: ReadonlyArray<PartKey<unknown>>): void {
    for (const key of keys) this.part(key);
    for (const [merchantId, url] of (snapshot.webhookUrls as Array<[string, string]> | undefined) ?? []) {
      this.webhookUrls.set(merchantId, url);
    }
    for (const [name, part] of this.#persisted) if (snapshot[name] !== undefined) part.load(snapshot[name]);
  }

  /** Lets each part of the sandbox drop its own state on reset. */
  onReset(hook: () => void): void {
    this.#resetHooks.push(hook);
  }

  /** Everything back to its start: real time, the first settings, no faults, deliveries or pending work. */
  reset(): void {
    this.clock.reset();
    this.settings = { ...defaultSettings(), ...this.#initialSettings };
    this.faults.clear();
    this.background.cancelAll();
    this.deliveries.clear();
    this.webhookUrls.clear();
    for (const hook of this.#resetHooks) hook();
    this.changed();
  }
}

/**
 * Accuracy of derived quotes: with the sandbox's clock pinned (so its price feed stands still), a fresh backend
 * learns each combination from one upstream quote, then prices other amounts (free fiat amounts, and crypto
 * amounts); every answer the backend marks `derived` is compared with the sandbox's own quote for the same amount
 * at the same clock, asked directly (paced under the sandbox's limit). The figure is the largest relative
 * difference over what the shopper sees: the crypto amount, the fiat before fees and the fiat paid.
 */
import { benchKeys, getJson, postJson, quantile, sleep } from './lib.ts';
import type { Combo } from './load.ts';
import { prng } from './prng.ts';

export interface AccuracyResult {
  pinnedAt: string;
  markup: number;
  combinations: number;
  asked: number;
  derived: number;
  /** Answers that came from the upstream instead (a combination the model did not fit, or a refresh race). */
  notDerived: number;
  refused: number;
  compared: number;
  exact: number;
  maxRelativeDiff: number;
  p99RelativeDiff: number;
  meanRelativeDiff: number;
  worst: { combo: Combo; amount: Record<string, string>; ours: string[]; theirs: string[] } | null;
  /** Fiat amounts typed (a total, fees inside): totals equal to it, totals over it (never expected), most cents short. */
  typedTotals: { asked: number; exact: number; over: number; maxCentsShort: number };
  /** Typed versus charged against the sandbox in each of its fee models (`measureTypedTotals`). */
  feeModels?: TypedTotalsRow[];
}

interface QuoteView {
  source?: string;
  fiat: { amount: string; total: string };
  crypto: { amount: string };
}

interface SandboxQuote {
  data: {
    crypto_amount: number;
    fiat_amount_excl_fees_local: number;
    fiat_amount_incl_fees_local: number;
  };
}

export async function measureAccuracy(options: {
  backendUrl: string;
  sandboxUrl: string;
  combos: Combo[];
  markup: number;
  perCombo?: number;
  seed?: number;
}): Promise<AccuracyResult> {
  const perCombo = options.perCombo ?? 12;
  const random = prng(options.seed ?? 20_261_125);
  const pinnedAt = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
  await postJson(`${options.sandboxUrl}/control/clock`, { now: pinnedAt });
  const quote = async (combo: Combo, amount: Record<string, string>) => {
    const response = await fetch(`${options.backendUrl}/api/quotes/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...combo, ...amount }),
    });
    return response.ok ? ((await response.json()) as QuoteView) : undefined;
  };

  const derived: Array<{ combo: Combo; amount: Record<string, string>; view: QuoteView }> = [];
  let asked = 0;
  let notDerived = 0;
  let refused = 0;
  try {
    for (const combo of options.combos) {
      // Right after a load the sandbox may still be throttling the bench's key for a moment: ask again.
      let reference = await quote(combo, { fiatAmount: '100' });
      for (let attempt = 0; !reference && attempt < 3; attempt++) {
        await sleep(1000);
        reference = await quote(combo, { fiatAmount: '100' });
      }
      if (!reference) continue;
      for (let i = 0; i < perCombo; i++) {
        // Mostly free fiat amounts (cents included), some crypto amounts around the reference's.
        const amount: Record<string, string> =
          i % 4 === 3
            ? { cryptoAmount: (Number(reference.crypto.amount) * (0.5 + random() * 5)).toFixed(6) }
            : { fiatAmount: (50 + random() * 900).toFixed(2) };
        asked += 1;
        const view = await quote(combo, amount);
        if (!view) refused += 1;
        else if (view.source === 'derived') derived.push({ combo, amount, view });
        else notDerived += 1;
      }
    }

    const diffs: number[] = [];
    /** Fiat typed: how often the total is exactly what was typed, and by how many cents it falls short otherwise. */
    const typedTotals = { asked: 0, exact: 0, over: 0, maxCentsShort: 0 };
    let worst: AccuracyResult['worst'] = null;
    let worstDiff = -1;
    for (const { combo, amount, view } of derived) {
      const body = {
        api_key: benchKeys.rampPublic,
        payment_method: combo.paymentMethod,
        region: combo.country,
        fiat_currency: combo.fiat,
        crypto_currency: combo.crypto,
        markup: options.markup,
        // A fiat amount typed is what the shopper pays, fees inside: the upstream is asked for the amount before
        // fees the backend priced it from (fiat.amount), and every figure of the two answers must agree.
        ...(amount.fiatAmount ? { fiat_amount: Number(view.fiat.amount) } : {}),
        ...(amount.cryptoAmount ? { crypto_amount: Number(amount.cryptoAmount) } : {}),
      };
      const theirs = await postJson<SandboxQuote>(`${options.sandboxUrl}/ramp/api/v1/merchant/pricing`, body)
        .then((answer) => answer.data)
        .catch(() => undefined);
      await sleep(25); // 40/s straight to the sandbox, beside the backend's own refreshes, under its 100/s
      if (!theirs) continue;
      const pairs: Array<[string, number]> = [
        [view.crypto.amount, theirs.crypto_amount],
        [view.fiat.amount, theirs.fiat_amount_excl_fees_local],
        [view.fiat.total, theirs.fiat_amount_incl_fees_local],
      ];
      const diff = Math.max(
        ...pairs.map(([a, b]) =>
          b === 0 ? (Number(a) === 0 ? 0 : 1) : Math.abs(Number(a) - b) / Math.abs(b),
        ),
      );
      diffs.push(diff);
      if (amount.fiatAmount) {
        typedTotals.asked += 1;
        const short = Math.round((Number(amount.fiatAmount) - Number(view.fiat.total)) * 100);
        if (short === 0) typedTotals.exact += 1;
        typedTotals.maxCentsShort = Math.max(typedTotals.maxCentsShort, short);
        if (short < 0) typedTotals.over += 1;
      }
      if (diff > worstDiff) {
        worstDiff = diff;
        worst = { combo, amount, ours: pairs.map(([a]) => a), theirs: pairs.map(([, b]) => String(b)) };
      }
    }
    return {
      pinnedAt,
      markup: options.markup,
      combinations: options.combos.length,
      asked,
      derived: derived.length,
      notDerived,
      refused,
      compared: diffs.length,
      exact: diffs.filter((diff) => diff === 0).length,
      maxRelativeDiff: diffs.length ? Math.max(...diffs) : Number.NaN,
      p99RelativeDiff: quantile(diffs, 0.99),
      meanRelativeDiff: diffs.length ? diffs.reduce((a, b) => a + b, 0) / diffs.length : Number.NaN,
      worst,
      typedTotals,
    };
  } finally {
    await getJson(`${options.sandboxUrl}/control/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reset: true }),
    });
  }
}

/** The sandbox's fee models the typed-totals step runs against (packages/sandbox README, "Quote model"). */
export const feeModels: Record<string, Record<string, string>> = {
  documented: {},
  'fixed fee per currency': { feeFixed: 'per-currency' },
  'fees in EUR': { feeCurrency: 'eur' },
  'rounded up': { feeRounding: 'up' },
  'on the gross': { feeOn: 'gross' },
  'on the net': { feeOn: 'net' },
  'all but EUR at once': { feeFixed: 'per-currency', feeRounding: 'up', feeOn: 'gross' },
};

const typedBuys = [
  { paymentMethod: 'creditcard', country: 'US', fiat: 'USD', crypto: 'ETH' },
  { paymentMethod: 'creditcard', country: 'DE', fiat: 'EUR', crypto: 'BTC' },
  { paymentMethod: 'creditcard', country: 'GB', fiat: 'GBP', crypto: 'SOL' },
];
const typedSells = [
  { payoutMethod: 'pix', country: 'BR', fiat: 'BRL', crypto: 'USDT_TRON' },
  { payoutMethod: 'bank-transfer', country: 'DE', fiat: 'EUR', crypto: 'ETH' },
];

export interface TypedTotalsRow {
  model: string;
  asked: number;
  /** What the upstream charges (buy) or pays out (sell) for the amount the backend priced, equal to what was typed. */
  exact: number;
  /** Charged more than typed on a buy, or paid out less on a sell: never expected. */
  wrongSide: number;
  /** The total shown differs from what the upstream charges for it: never expected. */
  shownNotCharged: number;
  /** The most cents between typed and charged (on the shopper's side). */
  maxCentsOff: number;
  derived: number;
  /** Upstream calls that checked a typed total, and those that corrected one (the backend's own counts). */
  checks: number;
  corrections: number;
}

/**
 * Typed versus charged, against the sandbox in each fee model: a fresh backend per model (`backendFor`), fiat
 * totals typed at random for buys and sells; each answer's amount priced by the sandbox directly, and what it
 * charges (buy) or pays out (sell) compared with what was typed and with what the backend showed.
 */
export async function measureTypedTotals(options: {
  sandboxUrl: string;
  markup: number;
  backendFor: () => Promise<{ url: string; stop(): Promise<void> }>;
  adminToken: string;
  perCombo?: number;
  seed?: number;
}): Promise<TypedTotalsRow[]> {
  const perCombo = options.perCombo ?? 12;
  const rows: TypedTotalsRow[] = [];
  const settings = (body: Record<string, string>) =>
    getJson(`${options.sandboxUrl}/control/settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const reset = {
    feeFixed: 'converted',
    feeCurrency: 'local',
    feeRounding: 'nearest',
    feeOn: 'priced',
  };
  try {
    for (const [model, switches] of Object.entries(feeModels)) {
      await settings({ ...reset, ...switches });
      const backend = await options.backendFor();
      const random = prng(options.seed ?? 20_261_129);
      const row: TypedTotalsRow = {
        model,
        asked: 0,
        exact: 0,
        wrongSide: 0,
        shownNotCharged: 0,
        maxCentsOff: 0,
        derived: 0,
        checks: 0,
        corrections: 0,
      };
      try {
        for (const side of ['buy', 'sell'] as const) {
          for (const combo of side === 'buy' ? typedBuys : typedSells) {
            for (let i = 0; i < perCombo; i++) {
              const typed = (30 + random() * 1500).toFixed(2);
              const response = await fetch(`${backend.url}/api/quotes/${side}`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ ...combo, fiatAmount: typed }),
              });
              if (!response.ok) continue;
              const view = (await response.json()) as QuoteView;
              const path = side === 'buy' ? 'pricing' : 'sell/pricing';
              const body =
                side === 'buy'
                  ? {
                      payment_method: (combo as (typeof typedBuys)[number]).paymentMethod,
                      region: combo.country,
                    }
                  : { payout_method: (combo as (typeof typedSells)[number]).payoutMethod };
              const theirs = await postJson<{
                data: { fiat_amount_incl_fees_local: number; fiat_amount_excl_fees_local: number };
              }>(`${options.sandboxUrl}/ramp/api/v1/merchant/${path}`, {
                api_key: benchKeys.rampPublic,
                ...body,
                fiat_currency: combo.fiat,
                crypto_currency: combo.crypto,
                markup: options.markup,
                fiat_amount: Number(view.fiat.amount),
              }).catch(() => undefined);
              await sleep(25); // paced under the sandbox's limit, beside the backend's own calls
              if (!theirs) continue;
              const charged =
                side === 'buy'
                  ? theirs.data.fiat_amount_incl_fees_local
                  : theirs.data.fiat_amount_excl_fees_local;
              const off = Math.round((charged - Number(typed)) * 100) * (side === 'buy' ? -1 : 1);
              row.asked += 1;
              if (off === 0) row.exact += 1;
              if (off < 0) row.wrongSide += 1;
              if (Math.round(charged * 100) !== Math.round(Number(view.fiat.total) * 100))
                row.shownNotCharged += 1;
              row.maxCentsOff = Math.max(row.maxCentsOff, Math.abs(off));
              if (view.source === 'derived') row.derived += 1;
            }
          }
        }
        const stats = await getJson<{ totalChecks: number; totalCorrections: number }>(
          `${backend.url}/api/admin/quote-engine`,
          { headers: { authorization: `Bearer ${options.adminToken}` } },
        ).catch(() => undefined);
        row.checks = stats?.totalChecks ?? Number.NaN;
        row.corrections = stats?.totalCorrections ?? Number.NaN;
      } finally {
        await backend.stop();
      }
      rows.push(row);
    }
  } finally {
    await settings(reset).catch(() => undefined);
  }
  return rows;
}

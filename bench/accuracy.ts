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

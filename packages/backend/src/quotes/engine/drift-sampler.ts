/**
 * The drift sampler: spends `samplerShare` of the budget pricing amounts the engine derived, compares, and records
 * the drift; past `driftThreshold` a combination is priced by the upstream only until a sample agrees again.
 */
import { type Amount, relativeDifference } from '../fee-model/derive.ts';
import type { References } from './references.ts';
import { roomIn } from './refresher.ts';
import type {
  AnyQuote,
  AnyRequest,
  Combination,
  DriftSample,
  EngineQuote,
  QuoteEngineOptions,
} from './types.ts';

export function createDriftSampler(
  references: References,
  options: Pick<QuoteEngineOptions, 'budget' | 'settings'>,
): () => Promise<DriftSample | undefined> {
  const { budget, settings } = options;
  const { combos, totals, derive, priceUpstream } = references;
  const hasRoom = roomIn(budget);
  let sampleTurn = 0;

  async function sample(): Promise<DriftSample | undefined> {
    if (!hasRoom(settings.samplerShare)) return undefined;
    // Combinations priced upstream-only for drift first (to re-learn them), then every other in turn.
    const candidates = [...combos.values()].filter((combo) => combo.reference && combo.recent.length);
    if (!candidates.length) return undefined;
    const drifting = candidates.filter((combo) => combo.upstreamOnly && combo.reason === 'drift');
    const combo = drifting[0] ?? (candidates[sampleTurn++ % candidates.length] as Combination);
    const amount = combo.recent[combo.recent.length - 1] as Amount;
    let ours: AnyQuote;
    try {
      ours = derive(combo, amount);
    } catch {
      combo.recent.pop();
      return undefined;
    }
    let theirs: EngineQuote<AnyQuote>;
    try {
      theirs = await priceUpstream(combo, { ...combo.request, ...amount } as AnyRequest);
    } catch {
      return undefined;
    }
    const difference = relativeDifference(ours, theirs.quote);
    totals.samples += 1;
    totals.lastDrift = difference;
    totals.maxDrift = Math.max(totals.maxDrift, difference);
    combo.drift.samples += 1;
    combo.drift.last = difference;
    combo.drift.max = Math.max(combo.drift.max, difference);
    const wasOff = combo.upstreamOnly && combo.reason === 'drift';
    const tripped = difference > settings.driftThreshold;
    if (tripped) {
      combo.upstreamOnly = true;
      combo.reason = 'drift';
    } else if (wasOff) {
      combo.upstreamOnly = false;
      combo.reason = undefined;
    }
    return { key: combo.key, amount, difference, tripped, recovered: wasOff && !tripped };
  }
  return sample;
}

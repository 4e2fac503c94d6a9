/**
 * One verdict per thing a backend needs before a shopper meets it: the configuration, the store, Redis, each
 * upstream with the configured keys. Each is a small function answering a `Verdict` with the fix of a failure,
 * for `crypto-checkout-backend check` (checks/run-check.ts). The store, Redis and upstream probes are
 * dependencies.ts's, the ones readiness (`/readyz`) runs on a running backend. None creates an order or moves
 * money: the upstream calls are reads (the order list, the supported currencies) and the load of a signed widget
 * page.
 */
import type { Redis } from 'ioredis';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { loadProductsSync } from '../products.ts';
import { overlapOpen } from '../secrets/keyring.ts';
import type { VariableSource } from '../secrets/samples.ts';
import { redisReason } from '../shared/redis.ts';
import type { Store } from '../store/store.ts';
import { signedWidgetUrl } from '../upstream/widget-url.ts';
import { probeFailure, probeRedis, probeStorage, upstreamProbes } from './dependencies.ts';

export interface Verdict {
  /** What was checked: `storage`, `payments API key`. */
  item: string;
  /** fail: shoppers would meet it; warn: works, but not as it should go live. */
  status: 'pass' | 'warn' | 'fail';
  detail: string;
  /** What to do about a warn or fail. */
  fix?: string;
}

const pass = (item: string, detail: string): Verdict => ({ item, status: 'pass', detail });
const warn = (item: string, detail: string, fix: string): Verdict => ({ item, status: 'warn', detail, fix });
const fail = (item: string, detail: string, fix: string): Verdict => ({ item, status: 'fail', detail, fix });

const randomSecretHint = 'make one with `openssl rand -base64 32`';
const credentialHint =
  'add name:scope:sha256 entries, each made with `token=$(openssl rand -hex 32); printf %s "$token" | sha256sum`';

/** The fix of a refused variable, by what the refusal names. */
function fixOf(problem: string): string {
  if (/ADMIN_CREDENTIALS/.test(problem)) return `ADMIN_CREDENTIALS: ${credentialHint}.`;
  if (/CHECKOUT_TOKEN_SECRET/.test(problem)) return `Set it to a long random string: ${randomSecretHint}.`;
  if (/MERCHANT_WEBHOOK_SECRET/.test(problem))
    return 'Set it to whsec_ + base64: `echo whsec_$(openssl rand -base64 32)`, and give the same to your receiver.';
  if (/_PREVIOUS/.test(problem))
    return 'See README "Rotating secrets": *_PREVIOUS holds old values beside the current variable.';
  if (/(RAMP|PAY)_/.test(problem))
    return 'Copy the keys from the upstream dashboard (Developers page); set all seven RAMP_*/PAY_* or none.';
  if (/PRODUCTS_FILE/.test(problem)) return 'Point PRODUCTS_FILE at your catalog (see data/products.json).';
  return 'Set it as `crypto-checkout-backend --help` (.env.example) describes.';
}

/** The configuration itself: every variable valid, and what parses but should not go live as it is. */
export function checkConfiguration(
  env: Record<string, string | undefined>,
  now = Date.now(),
  source?: VariableSource,
): { config: Config | undefined; verdicts: Verdict[] } {
  let config: Config;
  try {
    config = loadConfig(env, source ? { source } : {});
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return {
      config: undefined,
      verdicts: error.problems.map((problem) => {
        // A problem that carries its own fix (`… Fix: …`) is printed as the others are, the fix under it.
        const [detail = problem, fix] = problem.split(' Fix: ');
        return fail('configuration', detail, fix ?? fixOf(problem));
      }),
    };
  }
  const verdicts: Verdict[] = [pass('configuration', `every variable is valid (${config.mode} mode)`)];
  if (config.mode === 'sandbox') {
    verdicts.push(
      warn(
        'upstream',
        'no RAMP_*/PAY_* variable is set: the backend runs on the offline sandbox, no real payment can be made',
        'Set the seven upstream variables (RAMP_API_URL … PAY_WEBHOOK_SECRET) from the upstream dashboard.',
      ),
    );
  }
  const legacy = config.admin.credentials.find((credential) => credential.legacy);
  if (legacy && config.mode === 'live') {
    verdicts.push(
      warn(
        'admin credentials',
        'ADMIN_TOKEN is one unnamed token with full power (it works, as the write credential "admin")',
        `Give each person or system its own credential in ADMIN_CREDENTIALS (read where reading is enough): ${credentialHint}; then remove ADMIN_TOKEN.`,
      ),
    );
  } else if (config.mode === 'live') {
    const scopes = config.admin.credentials.map((c) => `${c.name} (${c.scope})`).join(', ');
    verdicts.push(pass('admin credentials', scopes));
  }
  if (config.mode === 'live') {
    verdicts.push(
      pass(
        'catalog',
        config.productsFile
          ? `${loadProductsSync(config.productsFile).length} product(s) from ${config.productsFile}`
          : 'none (PRODUCTS_FILE=none): checkouts are priced by the checkout tokens your server mints',
      ),
    );
  }
  const rotations: Array<
    [string, { previous: readonly string[]; previousUntil: number | undefined } | undefined]
  > = [
    ['CHECKOUT_TOKEN_SECRET', config.secrets.checkoutToken],
    ['MERCHANT_WEBHOOK_SECRET', config.secrets.merchantWebhook],
    ['PAY_WEBHOOK_SECRET', config.secrets.payWebhook],
    ['RAMP_SECRET_KEY', config.secrets.rampSecret],
  ];
  for (const [name, keyring] of rotations) {
    if (!keyring?.previous.length) continue;
    const until = keyring.previousUntil;
    if (until !== undefined && until <= now) {
      verdicts.push(
        warn(
          `${name} rotation`,
          `the overlap ended ${new Date(until).toISOString()}: ${name}_PREVIOUS is no longer accepted`,
          `Remove ${name}_PREVIOUS and ${name}_PREVIOUS_UNTIL, and restart.`,
        ),
      );
    } else if (until === undefined) {
      verdicts.push(
        warn(
          `${name} rotation`,
          `${name}_PREVIOUS is accepted with no end (no ${name}_PREVIOUS_UNTIL)`,
          `Once every sender and receiver uses the new value, remove ${name}_PREVIOUS and restart (or set ${name}_PREVIOUS_UNTIL).`,
        ),
      );
    } else if (overlapOpen({ current: '', ...keyring }, now)) {
      verdicts.push(
        pass(`${name} rotation`, `the previous value is accepted until ${new Date(until).toISOString()}`),
      );
    }
  }
  if (config.mode === 'live' && !config.publicUrl.startsWith('https://')) {
    verdicts.push(
      warn(
        'PUBLIC_URL',
        `${config.publicUrl} is not https: shoppers' return pages and the upstream's webhooks travel in clear`,
        'Serve the backend over https and set PUBLIC_URL to that address.',
      ),
    );
  }
  if (config.mode === 'live' && config.events.webhookUrls.length === 0) {
    verdicts.push(
      warn(
        'fulfilment events',
        'MERCHANT_WEBHOOK_URL is not set: only an app mounting the backend with onEvent hears order.paid',
        'Set MERCHANT_WEBHOOK_URL and MERCHANT_WEBHOOK_SECRET to your receiver (README "Hear about orders").',
      ),
    );
  }
  return { config, verdicts };
}

/** The store answers a read (dependencies.ts: a record that does not exist, nothing is written). */
export async function checkStorage(store: Store, database: string): Promise<Verdict> {
  try {
    await probeStorage(store);
    return pass('storage', `${database} answers`);
  } catch (error) {
    return fail(
      'storage',
      `${database} does not answer a read (${(error as Error).message})`,
      'Check DATABASE_URL (or DATA_DIR for SQLite), that the database runs and that this user may read it.',
    );
  }
}

/** Redis answers PING (dependencies.ts). */
export async function checkRedis(redis: Pick<Redis, 'ping'>, where: string): Promise<Verdict> {
  try {
    await probeRedis(redis);
    return pass('redis', `${where} answers`);
  } catch (error) {
    const message = (error as Error).message;
    return /PING/.test(message)
      ? fail('redis', `${where} ${message}`, 'Check that REDIS_URL points at a Redis server.')
      : fail(
          'redis',
          `${where} does not answer (${redisReason(error)})`,
          'Check REDIS_URL and that Redis is running.',
        );
  }
}

/** An HTTP read of an upstream page, or why it could not be made. */
async function read(url: string, timeoutMs: number) {
  try {
    const response = await fetch(url, {
      headers: { accept: 'application/json, text/html' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: response.status, text: await response.text().catch(() => '') };
  } catch (error) {
    const name = (error as Error).name;
    return {
      status: 0,
      text: name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message,
    };
  }
}

const unreachable = (item: string, what: string, base: string, why: string, variable: string): Verdict =>
  fail(
    item,
    `${what} at ${base} cannot be reached (${why})`,
    `Check ${variable} and this host's outbound network.`,
  );

/** How a key's verdicts are worded: the item, the API, the variables named, each fix. */
interface KeyWords {
  item: string;
  what: string;
  base: string;
  /** The variable of the API's address, and of the key. */
  urlVariable: string;
  keyVariable: string;
  /** What was read, in "answered 500 to …" and "accepted by … (… was read)". */
  read: string;
  passed: string;
  refusedFix: string;
  answeredFix: string;
}

/**
 * One upstream probe (dependencies.ts, as /readyz makes it, outside the budget and without log lines: the verdict
 * says it), worded as a verdict.
 */
async function checkKey(config: Config, probe: 'ramp' | 'payments', words: KeyWords): Promise<Verdict> {
  const { item, what, base } = words;
  try {
    await upstreamProbes(config, { log: () => undefined })[probe]();
    return pass(item, `accepted by ${base} (${words.passed})`);
  } catch (error) {
    const failure = probeFailure(error);
    if (failure.kind === 'unreachable' || failure.kind === 'timeout') {
      const why =
        failure.kind === 'timeout' ? `no answer within ${config.upstreamTimeoutMs} ms` : failure.message;
      return unreachable(item, what, base, why, words.urlVariable);
    }
    if (failure.kind === 'refused')
      return fail(item, `${what} refused ${words.keyVariable} (${failure.status})`, words.refusedFix);
    // Without a budget, busy can only be the upstream's 429.
    const how =
      failure.kind === 'busy'
        ? 'answered 429 (throttled)'
        : failure.status !== undefined
          ? `answered ${failure.status}`
          : `gave no usable answer (${failure.message})`;
    // The upstream answered, saying it cannot serve now (an outage, or throttling): nothing here is wrong, and a
    // deploy during the outage must not be blocked by it; the keys are not judged, so it is said. No answer at all
    // (above) stays a failure: from here a wrong address or a closed outbound network looks the same as an outage.
    if (failure.kind === 'busy' || (failure.status !== undefined && failure.status >= 500))
      return warn(
        item,
        `${what} ${how} to ${words.read}: it is degraded, so ${words.keyVariable} was not judged`,
        `Run check again once the provider is back. Running instances stay in the load balancer meanwhile (/readyz: "degraded"), serving the catalog and cached quotes.`,
      );
    return fail(item, `${what} ${how} to ${words.read}`, words.answeredFix);
  }
}

/** The payments API key, by listing one order (`GET /v1/merchants/orders?page=1&limit=1`). */
export const checkPaymentsKey = (config: Config): Promise<Verdict> =>
  checkKey(config, 'payments', {
    item: 'payments API key',
    what: 'the payments API',
    base: config.payments.apiUrl,
    urlVariable: 'PAY_API_URL',
    keyVariable: 'PAY_API_KEY',
    read: 'an order list',
    passed: 'an order list was read',
    refusedFix:
      "Copy the API key from the payments dashboard's Developers page into PAY_API_KEY (live keys for live).",
    answeredFix: 'Check PAY_API_URL (the API base, paths /v1/… are appended).',
  });

/** The ramp's public key, by reading the currencies it supports (`get_supported?api_key=`). */
export const checkRampPublicKey = (config: Config): Promise<Verdict> =>
  checkKey(config, 'ramp', {
    item: 'ramp public key',
    what: 'the ramp API',
    base: config.ramp.apiUrl,
    urlVariable: 'RAMP_API_URL',
    keyVariable: 'RAMP_PUBLIC_KEY',
    read: 'the supported currencies',
    passed: 'its supported currencies were read',
    refusedFix: 'Copy the public key (pk_live_…) from the ramp dashboard into RAMP_PUBLIC_KEY.',
    answeredFix: 'Check RAMP_API_URL (the API base, paths /api/v1/merchant/… are appended).',
  });

/**
 * The ramp's secret key, by loading a widget URL signed with it (a page load: no order until a shopper acts).
 * The upstream documents no answer to a bad signature; refused means 401/403 or a page saying the signature is
 * wrong, as the sandbox does.
 */
export async function checkRampSecretKey(config: Config): Promise<Verdict> {
  const item = 'ramp secret key';
  const { widgetUrl, publicKey, secretKey } = config.ramp;
  const url = signedWidgetUrl(widgetUrl, 'buy', { apiKey: publicKey }, secretKey);
  const answer = await read(url, config.upstreamTimeoutMs);
  if (answer.status === 0)
    return unreachable(item, 'the ramp widget', widgetUrl, answer.text, 'RAMP_WIDGET_URL');
  if (/(invalid|missing) api ?key/i.test(answer.text))
    return warn(
      item,
      'not judged: the ramp widget refused RAMP_PUBLIC_KEY before looking at the signature',
      'Fix RAMP_PUBLIC_KEY first, then check again.',
    );
  if (
    answer.status === 401 ||
    answer.status === 403 ||
    /signature[^<]{0,80}(invalid|wrong|refused|mismatch)|(invalid|wrong|bad) signature/i.test(answer.text)
  )
    return fail(
      item,
      `the ramp widget refused a URL signed with RAMP_SECRET_KEY (${answer.status})`,
      'Copy the secret key (sk_live_…) paired with RAMP_PUBLIC_KEY from the ramp dashboard into RAMP_SECRET_KEY.',
    );
  if (answer.status >= 500)
    return warn(
      item,
      `the ramp widget answered ${answer.status}: it is degraded, so RAMP_SECRET_KEY was not judged`,
      'Run check again once the provider is back (if it stays so, check RAMP_WIDGET_URL).',
    );
  return pass(item, `a URL signed with it was not refused by ${widgetUrl}`);
}

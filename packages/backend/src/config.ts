/**
 * The backend's configuration, parsed from the environment with zod; fails fast naming each bad variable. A config
 * object given in code (`createCheckout(config)`) is held to the same rules, with the same messages.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { unsignedEvents } from './config/code-config.ts';
import { type Config, ConfigError } from './config/config-type.ts';
import { observabilityOf, observabilityProblems } from './config/observability.ts';
import { envSchema, plainFields } from './config/registry.ts';
import { upstreamVars } from './config/settings/upstream.ts';
import { loopbackOrigins } from './config/start-warnings.ts';
import { loadProductsSync } from './products.ts';
import { adminConfig, secretProblems, secretsConfig, secretVariables } from './secrets/config.ts';
import { liveSecretProblems, type VariableSource } from './secrets/samples.ts';

export { checkConfig } from './config/code-config.ts';
export { type Config, ConfigError } from './config/config-type.ts';
export { envFileSource, readEnvFile } from './config/env-file.ts';
export { envVariables } from './config/registry.ts';
export { loopbackOrigins, startWarnings } from './config/start-warnings.ts';

/** Keys of the sandbox's form (see packages/sandbox/README.md): one merchant, id `demo`. */
export const sandboxKeys = {
  RAMP_PUBLIC_KEY: 'pk_sandbox_demo',
  RAMP_SECRET_KEY: 'sk_sandbox_demo',
  PAY_API_KEY: 'pay_sandbox_demo',
  PAY_WEBHOOK_SECRET: 'whsec_sandbox_demo',
} as const;

const defaultProductsFile = new URL('../data/products.json', import.meta.url).pathname;

/** PRODUCTS_FILE's value for "no catalog": every checkout is priced by a checkout token your server mints. */
export const noCatalog = 'none';

const noCatalogChosen =
  'PRODUCTS_FILE is not set, and live mode does not sell the sample catalog. Fix: set PRODUCTS_FILE to your catalog (a JSON file, see data/products.json), or PRODUCTS_FILE=none for checkouts priced by checkout tokens only.';

/** Whether `file` is the sample catalog shipped with the backend (the file itself, or a copy of it). */
function isSampleCatalog(file: string): boolean {
  try {
    return (
      realpathSync(file) === realpathSync(defaultProductsFile) ||
      readFileSync(file, 'utf8').trim() === readFileSync(defaultProductsFile, 'utf8').trim()
    );
  } catch {
    return false;
  }
}

/** The fields every variable's entry sets as it is (the others, decided by loadConfig, are left out). */
type PlainFields = Omit<
  Config,
  | 'mode'
  | 'publicUrl'
  | 'allowedOrigins'
  | 'productsFile'
  | 'checkoutTokenSecret'
  | 'adminToken'
  | 'ramp'
  | 'payments'
  | 'secrets'
  | 'admin'
  | 'observability'
>;

export interface LoadConfigOptions {
  /** Where each variable was set (`envFileSource`), so a refusal names the `.env` line to change. */
  source?: VariableSource;
}

/**
 * Reads the configuration. With no upstream variable set it runs on the sandbox (mounted at
 * `${PUBLIC_URL}/sandbox`); with some but not all set it refuses, listing what is missing, so it never
 * falls back to the sandbox by accident when keys are given.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): Config {
  const source = options.source ?? (() => undefined);
  const named = (name: string) => {
    const where = source(name);
    return where ? `${name} (${where})` : name;
  };
  const parsed = envSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        // `PAY_WEBHOOK_SECRET_PREVIOUS (.env line 110) value 2: …` for the second value of a list.
        const [name = 'env', ...rest] = issue.path.map(String);
        const where = source(name);
        const item = rest.length ? ` value ${Number(rest[0]) + 1}` : '';
        return `${name}${where ? ` (${where})` : ''}${item}: ${issue.message}`;
      });
  // Read from the raw environment, so one message names the bad variables and the missing ones together.
  const given = upstreamVars.filter((name) => env[name] !== undefined);
  const mode = given.length === 0 ? 'sandbox' : 'live';
  if (mode === 'live') {
    for (const name of upstreamVars) {
      if (env[name] === undefined) problems.push(`${name} is missing (the other upstream variables are set)`);
    }
    if (!env['PUBLIC_URL']) problems.push('PUBLIC_URL is missing (needed for return and webhook URLs)');
    if (!env['CHECKOUT_TOKEN_SECRET']) problems.push('CHECKOUT_TOKEN_SECRET is missing');
    if (!env['ADMIN_TOKEN'] && !env['ADMIN_CREDENTIALS']?.trim())
      problems.push('ADMIN_CREDENTIALS is missing (or the older single ADMIN_TOKEN)');
    if (!(env['ALLOWED_ORIGINS'] ?? '').split(',').some((part) => part.trim()))
      problems.push('ALLOWED_ORIGINS is missing (the storefront origins)');
    const credentials = secretVariables.ADMIN_CREDENTIALS.safeParse(env['ADMIN_CREDENTIALS']);
    problems.push(...liveSecretProblems(env, credentials.success ? credentials.data : [], source));
    if (!env['PRODUCTS_FILE']) problems.push(noCatalogChosen);
    else if (env['PRODUCTS_FILE'] !== noCatalog && isSampleCatalog(env['PRODUCTS_FILE']))
      problems.push(
        `${named('PRODUCTS_FILE')} is the sample catalog shipped with the backend (the demo's products and prices). Fix: set PRODUCTS_FILE to your catalog, or PRODUCTS_FILE=none for checkouts priced by checkout tokens only.`,
      );
  }
  if (env['MERCHANT_WEBHOOK_URL']?.trim() && !env['MERCHANT_WEBHOOK_SECRET']) problems.push(unsignedEvents);
  problems.push(...secretProblems(env));
  problems.push(...observabilityProblems(env));
  // The catalog is what orders are priced from: a missing or broken file is refused now, not at the first order.
  const productsFile =
    env['PRODUCTS_FILE'] === noCatalog ? null : env['PRODUCTS_FILE'] || defaultProductsFile;
  try {
    if (productsFile) loadProductsSync(productsFile);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!parsed.success || problems.length) throw new ConfigError(problems);
  const vars = parsed.data;

  const publicUrl = vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`;
  const sandboxBase = `${publicUrl}/sandbox`;
  const origins = vars.ALLOWED_ORIGINS.length ? vars.ALLOWED_ORIGINS : [new URL(publicUrl).origin];
  const checkoutTokenSecret =
    vars.CHECKOUT_TOKEN_SECRET ?? 'sandbox-checkout-token-secret-not-for-production';
  // With no admin credential at all (the sandbox), a fixed sandbox-only token is the "admin" write credential.
  const adminToken =
    vars.ADMIN_TOKEN ??
    (vars.ADMIN_CREDENTIALS.length ? undefined : 'sandbox-admin-token-not-for-production');
  const rampSecretKey = vars.RAMP_SECRET_KEY ?? sandboxKeys.RAMP_SECRET_KEY;
  const payWebhookSecret = vars.PAY_WEBHOOK_SECRET ?? sandboxKeys.PAY_WEBHOOK_SECRET;
  // What each variable sets as it is comes from its entry (config/settings/); the rest is decided here.
  const plain = plainFields(vars) as unknown as PlainFields;
  return {
    ...plain,
    mode,
    publicUrl,
    // A first run is opened at whichever local address people type; live mode trusts ALLOWED_ORIGINS only.
    allowedOrigins: mode === 'sandbox' ? [...new Set([...origins, ...loopbackOrigins(vars.PORT)])] : origins,
    productsFile,
    checkoutTokenSecret,
    adminToken,
    quoteEngine: {
      ...plain.quoteEngine,
      maxStaleMs: Math.max(vars.QUOTE_DERIVE_MAX_STALE_MS, vars.QUOTE_DERIVE_FRESH_MS),
    },
    ramp: {
      apiUrl: vars.RAMP_API_URL ?? `${sandboxBase}/ramp`,
      widgetUrl: vars.RAMP_WIDGET_URL ?? `${sandboxBase}/ramp`,
      publicKey: vars.RAMP_PUBLIC_KEY ?? sandboxKeys.RAMP_PUBLIC_KEY,
      secretKey: rampSecretKey,
    },
    payments: {
      apiUrl: vars.PAY_API_URL ?? `${sandboxBase}/pay-api`,
      apiKey: vars.PAY_API_KEY ?? sandboxKeys.PAY_API_KEY,
      webhookSecret: payWebhookSecret,
    },
    secrets: secretsConfig(vars, {
      checkoutToken: checkoutTokenSecret,
      merchantWebhook: vars.MERCHANT_WEBHOOK_SECRET,
      payWebhook: payWebhookSecret,
      rampSecret: rampSecretKey,
    }),
    admin: adminConfig(vars, adminToken),
    observability: observabilityOf(vars),
  };
}

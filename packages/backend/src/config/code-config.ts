/** A config object given in code (`createCheckout(config)`), held to the rules the environment's values meet. */
import { loadProductsSync } from '../products.ts';
import { type Config, ConfigError } from './config-type.ts';
import { codeConfigSchema } from './registry.ts';

export const unsignedEvents =
  'MERCHANT_WEBHOOK_SECRET is missing (MERCHANT_WEBHOOK_URL is set): events are always signed';

/**
 * Holds a config object given in code (`createCheckout(config)`) to the rules the environment's values meet,
 * with the same messages, so a mistake stops it at once rather than failing every order later. Returns the same
 * object; throws ConfigError naming each field (`events.webhookUrls: …`).
 */
export function checkConfig(config: Config): Config {
  const parsed = codeConfigSchema.safeParse(config);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'config'}: ${issue.message}`);
  const events = (config as Partial<Config> | undefined)?.events;
  if (Array.isArray(events?.webhookUrls) && events.webhookUrls.length && !events.webhookSecret)
    problems.push(`events.webhookSecret: ${unsignedEvents}`);
  const productsFile = (config as Partial<Config> | undefined)?.productsFile;
  if (typeof productsFile === 'string' && productsFile) {
    try {
      loadProductsSync(productsFile);
    } catch (error) {
      problems.push(`productsFile: ${(error as Error).message}`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}

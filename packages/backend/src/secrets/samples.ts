/**
 * What live mode refuses of the secrets it is given: a value the documentation shows (anyone can read it, so it
 * opens nothing safely), a placeholder, one too short to be a real key, and one value given to two settings (one
 * leaked would open both). Each problem names the variable, the `.env` line it came from when it came from one,
 * and the fix. The sandbox (no upstream keys) keeps its own defaults: it moves no money.
 */
import { tokenSha256 } from '../admin/credentials.ts';

/**
 * Every secret value shown in `.env.example`, the README, `packages/backend/README.md`, API.md and docs/ (today's
 * and earlier versions': an operator may have copied an older example), and the sandbox's own defaults. A test
 * (`test/env-example.test.ts`) checks that each secret line of `.env.example` is refused.
 */
export const documentedSamples: readonly string[] = [
  // .env.example, the main lines.
  'pk_live_xxx',
  'sk_live_xxx',
  'xxx',
  'change-me-to-a-long-random-string',
  'change-me-to-another-long-random-string',
  'change-me-a-third-long-random-string',
  'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  // .env.example's rotation lines before they were shipped commented out.
  'the-old-checkout-token-secret',
  'whsec_OldSecretOldSecretOldSecret00',
  'old-webhook-secret',
  'sk_live_old',
  // The README's DATABASE_URL example (its password).
  'postgres://checkout:secret@db.internal:5432/checkout',
  // What the sandbox runs with when no key is set (config.ts).
  'sandbox-checkout-token-secret-not-for-production',
  'sandbox-admin-token-not-for-production',
];

/** Tokens whose SHA-256 earlier examples put in ADMIN_CREDENTIALS (`support` and `ops`). */
const sampleAdminTokens = ['foo', 'bar'];

/**
 * The sandbox's demo keys, which the README shows for a backend pointed at a shared sandbox ("Running several
 * instances"): allowed when all four upstream keys are of the sandbox's form (they open only a sandbox), refused
 * beside real keys, where a demo webhook secret would let anyone sign what the backend trusts.
 */
export const sandboxDemoKeys: ReadonlySet<string> = new Set([
  'pk_sandbox_demo',
  'sk_sandbox_demo',
  'pay_sandbox_demo',
  'whsec_sandbox_demo',
]);

/** The sandbox's key forms (packages/sandbox/src/keys.ts). */
const sandboxForms = {
  RAMP_PUBLIC_KEY: /^pk_sandbox_/,
  RAMP_SECRET_KEY: /^sk_sandbox_/,
  PAY_API_KEY: /^pay_sandbox_/,
  PAY_WEBHOOK_SECRET: /^whsec_sandbox_/,
} as const;

/** A value written as a placeholder to be replaced: `<the old PAY_WEBHOOK_SECRET>`. */
const placeholder = /^<.*>$/s;

/** The fewest characters of a secret the upstream issues: shorter is a placeholder, not a key. */
export const UPSTREAM_SECRET_MIN = 12;
/** The fewest characters of a secret the merchant makes (the schema of each says so too). */
const OWN_SECRET_MIN = 16;

const randomHint = 'make one with `openssl rand -base64 32`';
const whsecHint = 'make one with `echo whsec_$(openssl rand -base64 32)` and give it to your receiver too';
const upstreamHint = "copy it from the upstream dashboard's Developers page";
const previousHint = (name: string) =>
  `only during a rotation (README "Rotating secrets") put the old ${name} there; otherwise remove the line`;
const credentialHint =
  'make a token with `token=$(openssl rand -hex 32)`, give it to its holder and put `printf %s "$token" | sha256sum` here';

/** Each secret variable live mode checks, and how its holder makes a proper value. */
const secretSettings: ReadonlyArray<{ name: string; min: number; fix: string; list?: true }> = [
  { name: 'RAMP_PUBLIC_KEY', min: 1, fix: upstreamHint },
  { name: 'RAMP_SECRET_KEY', min: UPSTREAM_SECRET_MIN, fix: upstreamHint },
  { name: 'PAY_API_KEY', min: UPSTREAM_SECRET_MIN, fix: upstreamHint },
  { name: 'PAY_WEBHOOK_SECRET', min: UPSTREAM_SECRET_MIN, fix: upstreamHint },
  { name: 'CHECKOUT_TOKEN_SECRET', min: OWN_SECRET_MIN, fix: randomHint },
  { name: 'ADMIN_TOKEN', min: OWN_SECRET_MIN, fix: `${randomHint} (or use ADMIN_CREDENTIALS)` },
  { name: 'METRICS_TOKEN', min: OWN_SECRET_MIN, fix: randomHint },
  { name: 'MERCHANT_WEBHOOK_SECRET', min: OWN_SECRET_MIN, fix: whsecHint },
  { name: 'DATABASE_URL', min: 1, fix: "use your database's own address and password" },
  {
    name: 'CHECKOUT_TOKEN_SECRET_PREVIOUS',
    min: OWN_SECRET_MIN,
    fix: previousHint('CHECKOUT_TOKEN_SECRET'),
    list: true,
  },
  {
    name: 'MERCHANT_WEBHOOK_SECRET_PREVIOUS',
    min: OWN_SECRET_MIN,
    fix: previousHint('MERCHANT_WEBHOOK_SECRET'),
    list: true,
  },
  {
    name: 'PAY_WEBHOOK_SECRET_PREVIOUS',
    min: UPSTREAM_SECRET_MIN,
    fix: previousHint('PAY_WEBHOOK_SECRET'),
    list: true,
  },
  {
    name: 'RAMP_SECRET_KEY_PREVIOUS',
    min: UPSTREAM_SECRET_MIN,
    fix: previousHint('RAMP_SECRET_KEY'),
    list: true,
  },
];

/** The current variable a `*_PREVIOUS` one belongs to: a value repeated between the two is no sharing. */
const ownerOf = (name: string) => name.replace(/_PREVIOUS$/, '');

/** Where a variable was set, for messages: `CHECKOUT_TOKEN_SECRET (.env line 39)`; just its name otherwise. */
export type VariableSource = (name: string) => string | undefined;

/**
 * The problems of live mode's secrets in `env`, each one sentence ending in `Fix: …`. `source` names the `.env`
 * line a variable came from.
 */
export function liveSecretProblems(
  env: Record<string, string | undefined>,
  admin: ReadonlyArray<{ name: string; sha256: string }>,
  source: VariableSource = () => undefined,
): string[] {
  const named = (name: string) => {
    const where = source(name);
    return where ? `${name} (${where})` : name;
  };
  const problems: string[] = [];
  const samples = new Set(documentedSamples);
  const allSandbox = Object.entries(sandboxForms).every(([name, form]) => form.test(env[name] ?? ''));

  /** Every value given, with the variable it came from: what the sharing check compares. */
  const given: Array<{ name: string; value: string }> = [];
  for (const setting of secretSettings) {
    const raw = env[setting.name];
    if (raw === undefined || raw === '') continue;
    const values = setting.list
      ? raw
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
      : [raw];
    for (const [index, value] of values.entries()) {
      const which = setting.list && values.length > 1 ? ` (value ${index + 1})` : '';
      const demo = sandboxDemoKeys.has(value) && !allSandbox;
      if (placeholder.test(value)) {
        problems.push(
          `${named(setting.name)}${which} is a placeholder from the example, not a value. Fix: ${setting.fix}.`,
        );
      } else if (samples.has(value) || demo) {
        const what = demo
          ? "is the sandbox's demo key, printed in the README, beside real upstream keys: anyone can sign with it"
          : 'is a sample value printed in the documentation, which anyone can read';
        problems.push(`${named(setting.name)}${which} ${what}. Fix: ${setting.fix}.`);
      } else if (value.length < setting.min) {
        problems.push(
          `${named(setting.name)}${which} is ${value.length} characters, too short to be a secret (at least ${setting.min}). Fix: ${setting.fix}.`,
        );
      } else if (setting.name !== 'DATABASE_URL') {
        given.push({ name: setting.name, value });
      }
    }
  }

  // One value in two settings: whoever holds one (a receiver, a dashboard user, a metrics scraper) holds both.
  const seen = new Map<string, string>();
  for (const { name, value } of given) {
    const other = seen.get(value);
    if (other !== undefined && ownerOf(other) !== ownerOf(name)) {
      problems.push(
        `${named(name)} has the same value as ${named(other)}: whoever holds one would hold both. Fix: give ${name} a value of its own (${secretSettings.find((s) => s.name === name)?.fix}).`,
      );
    } else if (other === undefined) seen.set(value, name);
  }

  // ADMIN_CREDENTIALS holds hashes: compared with the hash of every sample token and of every other secret.
  const sampleHashes = new Map(
    [...sampleAdminTokens, ...documentedSamples].map((token) => [tokenSha256(token), token]),
  );
  const secretHashes = new Map(given.map(({ name, value }) => [tokenSha256(value), name]));
  const hashes = new Map<string, string>();
  for (const [index, credential] of admin.entries()) {
    const entry = `${named('ADMIN_CREDENTIALS')} entry ${index + 1} ("${credential.name}")`;
    const sha256 = credential.sha256.toLowerCase();
    const twin = hashes.get(sha256);
    if (sampleHashes.has(sha256)) {
      problems.push(
        `${entry} is the SHA-256 of a token printed in the documentation: anyone can present it. Fix: ${credentialHint}.`,
      );
    } else if (secretHashes.has(sha256)) {
      problems.push(
        `${entry} is the SHA-256 of ${secretHashes.get(sha256)}'s value: whoever holds one would hold both. Fix: ${credentialHint}.`,
      );
    } else if (twin !== undefined && twin !== credential.name) {
      problems.push(
        `${entry} has the same hash as "${twin}": one token would be two credentials. Fix: ${credentialHint}.`,
      );
    }
    hashes.set(sha256, credential.name);
  }
  return problems;
}

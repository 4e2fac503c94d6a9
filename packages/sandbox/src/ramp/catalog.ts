/**
 * What the simulated ramp sells and where: countries, fiat currencies, cryptos, payment methods (on-ramp) and
 * payout methods (off-ramp). Constant tables only; the shapes served by the API are built in api.ts.
 */

export interface Country {
  iso: string;
  name: string;
  /** Default fiat of the country. */
  currency: string;
}

export interface Fiat {
  iso: string;
  name: string;
  /** EUR value of one unit; the sandbox's FX table (fixed, unlike crypto prices). */
  eur: number;
}

export interface Crypto {
  id: number;
  /** The code clients send (`crypto_currency`, `currencyCode`). */
  iso: string;
  name: string;
  /** Ticker without the network suffix, as SWAPPED_ORDER_DATA names it (`USDC`). */
  symbol: string;
  type: 'coin' | 'token';
  /** Lowercase network name, as ramp callbacks spell it (`litecoin`, `base`). */
  network: string;
  /** Network fee in EUR, as a string (the upstream sends it that way). */
  network_fee: string;
  /** Decimals amounts of this crypto are rounded to. */
  decimals: number;
  /** Price of one unit at t=0: EUR for coins, USD for dollar stablecoins (see price-feed.ts). */
  base: { eur: number } | { usd: number };
  /** XRP and TON need a destination tag / memo next to the address. */
  memo?: boolean;
}

const country = (iso: string, name: string, currency: string): Country => ({ iso, name, currency });

export const countries: readonly Country[] = [
  country('US', 'United States', 'USD'),
  country('CA', 'Canada', 'CAD'),
  country('MX', 'Mexico', 'MXN'),
  country('BR', 'Brazil', 'BRL'),
  country('AR', 'Argentina', 'ARS'),
  country('CO', 'Colombia', 'COP'),
  country('GB', 'United Kingdom', 'GBP'),
  country('IE', 'Ireland', 'EUR'),
  country('DE', 'Germany', 'EUR'),
  country('FR', 'France', 'EUR'),
  country('ES', 'Spain', 'EUR'),
  country('IT', 'Italy', 'EUR'),
  country('NL', 'Netherlands', 'EUR'),
  country('BE', 'Belgium', 'EUR'),
  country('AT', 'Austria', 'EUR'),
  country('PT', 'Portugal', 'EUR'),
  country('FI', 'Finland', 'EUR'),
  country('DK', 'Denmark', 'DKK'),
  country('SE', 'Sweden', 'SEK'),
  country('NO', 'Norway', 'NOK'),
  country('PL', 'Poland', 'PLN'),
  country('CZ', 'Czechia', 'CZK'),
  country('RO', 'Romania', 'RON'),
  country('BG', 'Bulgaria', 'BGN'),
  country('HU', 'Hungary', 'HUF'),
  country('CH', 'Switzerland', 'CHF'),
  country('TR', 'Turkey', 'TRY'),
  country('ZA', 'South Africa', 'ZAR'),
  country('KE', 'Kenya', 'KES'),
  country('ZM', 'Zambia', 'ZMW'),
  country('NG', 'Nigeria', 'NGN'),
  country('AE', 'United Arab Emirates', 'AED'),
  country('IN', 'India', 'INR'),
  country('ID', 'Indonesia', 'IDR'),
  country('PH', 'Philippines', 'PHP'),
  country('VN', 'Vietnam', 'VND'),
  country('TH', 'Thailand', 'THB'),
  country('SG', 'Singapore', 'SGD'),
  country('JP', 'Japan', 'JPY'),
  country('AU', 'Australia', 'AUD'),
  country('NZ', 'New Zealand', 'NZD'),
];

const fiat = (iso: string, name: string, eur: number): Fiat => ({ iso, name, eur });

export const fiats: readonly Fiat[] = [
  fiat('EUR', 'Euro', 1),
  fiat('USD', 'US Dollar', 0.8855),
  fiat('GBP', 'British Pound', 1.1705),
  fiat('CAD', 'Canadian Dollar', 0.6312),
  fiat('MXN', 'Mexican Peso', 0.04712),
  fiat('BRL', 'Brazilian Real', 0.1598),
  fiat('ARS', 'Argentine Peso', 0.000851),
  fiat('COP', 'Colombian Peso', 0.000221),
  fiat('DKK', 'Danish Krone', 0.134),
  fiat('SEK', 'Swedish Krona', 0.0884),
  fiat('NOK', 'Norwegian Krone', 0.0851),
  fiat('PLN', 'Polish Zloty', 0.2351),
  fiat('CZK', 'Czech Koruna', 0.0402),
  fiat('RON', 'Romanian Leu', 0.1963),
  fiat('BGN', 'Bulgarian Lev', 0.5113),
  fiat('HUF', 'Hungarian Forint', 0.00254),
  fiat('CHF', 'Swiss Franc', 1.0662),
  fiat('TRY', 'Turkish Lira', 0.0221),
  fiat('ZAR', 'South African Rand', 0.0498),
  fiat('KES', 'Kenyan Shilling', 0.00686),
  fiat('ZMW', 'Zambian Kwacha', 0.0331),
  fiat('NGN', 'Nigerian Naira', 0.000577),
  fiat('AED', 'UAE Dirham', 0.2411),
  fiat('INR', 'Indian Rupee', 0.01031),
  fiat('IDR', 'Indonesian Rupiah', 0.0000541),
  fiat('PHP', 'Philippine Peso', 0.01522),
  fiat('VND', 'Vietnamese Dong', 0.0000339),
  fiat('THB', 'Thai Baht', 0.02612),
  fiat('SGD', 'Singapore Dollar', 0.6731),
  fiat('JPY', 'Japanese Yen', 0.00581),
  fiat('AUD', 'Australian Dollar', 0.5702),
  fiat('NZD', 'New Zealand Dollar', 0.5178),
];

/**
 * One row per crypto: id, code, name, network, network fee (EUR, as the upstream's string), decimals, price at
 * t=0. The rest follows from the row: the symbol is the code before its network suffix, a USD-priced asset is a
 * stablecoin token, and XRP and TON carry a memo.
 */
type CryptoRow = readonly [
  id: number,
  iso: string,
  name: string,
  network: string,
  networkFee: string,
  decimals: number,
  base: Crypto['base'],
];

const MEMO_NETWORKS: readonly string[] = ['ripple', 'ton'];

const cryptoRows: readonly CryptoRow[] = [
  [1, 'BTC', 'Bitcoin', 'bitcoin', '1.50', 8, { eur: 90_000 }],
  [2, 'ETH', 'Ethereum', 'ethereum', '0.90', 8, { eur: 3_200 }],
  [3, 'USDC_ETHEREUM', 'USD Coin (Ethereum)', 'ethereum', '1.20', 6, { usd: 1 }],
  [4, 'USDT_ETHEREUM', 'Tether (Ethereum)', 'ethereum', '1.20', 6, { usd: 1 }],
  [5, 'DAI_ETHEREUM', 'Dai (Ethereum)', 'ethereum', '1.20', 6, { usd: 1 }],
  [6, 'USDC_BASE', 'USD Coin (Base)', 'base', '0.05', 6, { usd: 1 }],
  [7, 'ETH_BASE', 'Ethereum (Base)', 'base', '0.05', 8, { eur: 3_200 }],
  [8, 'USDC_ARBITRUM', 'USD Coin (Arbitrum)', 'arbitrum', '0.10', 6, { usd: 1 }],
  [9, 'USDC_POLYGON', 'USD Coin (Polygon)', 'polygon', '0.05', 6, { usd: 1 }],
  [10, 'SOL', 'Solana', 'solana', '0.02', 9, { eur: 150 }],
  [11, 'USDC_SOLANA', 'USD Coin (Solana)', 'solana', '0.02', 6, { usd: 1 }],
  [12, 'USDT_SOLANA', 'Tether (Solana)', 'solana', '0.02', 6, { usd: 1 }],
  [13, 'USDT_TRON', 'Tether (Tron)', 'tron', '1.00', 6, { usd: 1 }],
  [14, 'TRX', 'Tron', 'tron', '0.30', 6, { eur: 0.26 }],
  [15, 'LTC', 'Litecoin', 'litecoin', '0.02', 8, { eur: 85 }],
  [16, 'XRP', 'XRP', 'ripple', '0.01', 6, { eur: 2.1 }],
  [17, 'DOGE', 'Dogecoin', 'dogecoin', '0.10', 8, { eur: 0.16 }],
  [18, 'TON', 'Toncoin', 'ton', '0.02', 9, { eur: 2.8 }],
  [19, 'BCH', 'Bitcoin Cash', 'bitcoin-cash', '0.01', 8, { eur: 450 }],
];

export const cryptos: readonly Crypto[] = cryptoRows.map(
  ([id, iso, name, network, network_fee, decimals, base]): Crypto => ({
    id,
    iso,
    name,
    symbol: iso.split('_')[0]!,
    type: 'usd' in base ? 'token' : 'coin',
    network,
    network_fee,
    decimals,
    base,
    ...(MEMO_NETWORKS.includes(network) ? { memo: true } : {}),
  }),
);

/** `tags` of get_supported: the values a client may send as the crypto code (the live service accepts lowercase). */
export const cryptoTags = (crypto: Crypto): string[] => {
  const tags = [crypto.iso, crypto.iso.toLowerCase()];
  if (crypto.iso === 'ETH') tags.push('ETH_ETHEREUM', 'eth_ethereum');
  return tags;
};

const countryCodes = countries.map((c) => c.iso);

/** A list written as space-separated codes, the compact form the tables below use. */
type Codes = string | readonly string[];
const codes = (list: Codes): readonly string[] => (typeof list === 'string' ? list.split(' ') : list);
const without = (list: Codes, drop: Codes) => codes(list).filter((c) => !codes(drop).includes(c));

const euroArea = codes('IE DE FR ES IT NL BE AT PT FI');
const nonEuroEea = codes('DK SE NO PL CZ RO BG HU');
const eea = [...euroArea, ...nonEuroEea];
const europe = [...eea, 'GB', 'CH'];
const latam = codes('MX BR AR CO');

/** How the upstream writes a method's fixed fee: `{"base_fee": 0.35}` on some methods, per currency on others. */
export type BaseFeeShape = 'base_fee-key' | 'per-currency' | 'null';

export interface MethodSpec {
  id: number;
  name: string;
  /** Percentage of the order. */
  fee: number;
  slug: string;
  /** The live data has `null` on some methods. */
  default: boolean | null;
  currency: readonly string[];
  /** Fixed fee in EUR (converted to the order's fiat in quotes). */
  baseFeeEur: number;
  baseFeeShape: BaseFeeShape;
  disabled: boolean;
  /** Minimum processing fee in EUR; only some methods carry the field. */
  min_fee?: number;
  min_amount: number;
  max_amount: number;
  /** Name of the SVG served under /ramp/images/payment/. */
  icon: string;
  kyc_required?: boolean;
  order?: number;
  countries: readonly string[];
}

export interface PaymentMethodSpec extends MethodSpec {
  payment_group: string;
}

/** What a method row may set beyond its columns; everything else is the usual method (see `methodOf`). */
type MethodExtras = Partial<
  Pick<
    MethodSpec,
    'default' | 'baseFeeShape' | 'disabled' | 'min_fee' | 'min_amount' | 'kyc_required' | 'order' | 'icon'
  >
>;

/** id, slug, name, fee %, fixed fee (EUR), maximum (EUR), currencies, countries, then what differs. */
type MethodRow = readonly [
  id: number,
  slug: string,
  name: string,
  fee: number,
  baseFeeEur: number,
  maxEur: number,
  currencies: Codes,
  countries: Codes,
  extras?: MethodExtras,
];

/**
 * The usual method: not the default, fixed fee per currency, enabled, from 7 EUR
 * (docs/upstream.md#limits-and-timing).
 */
function methodOf(
  [id, slug, name, fee, baseFeeEur, max, currencies, where, extras]: MethodRow,
  icon: string,
) {
  const method: MethodSpec = {
    id,
    name,
    fee,
    slug,
    default: false,
    currency: codes(currencies),
    baseFeeEur,
    baseFeeShape: 'per-currency',
    disabled: false,
    min_amount: 7,
    max_amount: max,
    icon,
    countries: codes(where),
    ...extras,
  };
  return method;
}

const card = codes('USD EUR GBP CAD AUD NZD SEK NOK PLN CZK RON HUF CHF TRY');
const cardWide = [...card, ...codes('MXN ARS COP ZAR KES ZMW NGN AED INR PHP THB SGD')];
const cardExtra = codes('DKK GBP CHF JPY BRL IDR BGN VND EUR USD');
const cardExtraCountries = codes('DK GB CH JP BR ID BG VN');
const cardQuirks = { default: true, baseFeeShape: 'base_fee-key', min_fee: 0 } as const;
const usCaGb = 'US CA GB';
const walletFiats = 'USD CAD GBP EUR';
const applePayCountries = without([...europe, ...codes('AU NZ SG JP AE')], 'GB');
const googlePayCountries = without([...europe, ...codes('AU NZ SG IN ID BR MX')], 'GB');
const localBankFiats = [...codes('DKK SEK NOK PLN CZK RON BGN HUF'), 'EUR'];
const bank = { min_amount: 20, kyc_required: true } as const;
const eWallet = { default: null, baseFeeShape: 'base_fee-key' } as const;
const payPalCountries = 'US GB DE FR ES IT NL IE AT BE CA AU';
const revolutFiats = 'EUR GBP PLN RON CZK HUF SEK DKK NOK CHF';
const astroPayCountries = [...latam, ...codes('TR ZA NG IN ID PH VN TH')];

type OnRampRow = readonly [group: string, ...row: MethodRow];

/**
 * On-ramp methods, each row led by its payment group (which also names its icon). Per country, each group
 * resolves to one slug (the countries of a group's slugs do not overlap).
 */
// biome-ignore format: a table reads best one method per line, however long the line
const onRampRows: readonly OnRampRow[] = [
  ['creditcard', 100, 'creditcard', 'Card', 3.75, 0.35, 100_000, cardWide, without(countryCodes, cardExtraCountries), { ...cardQuirks, kyc_required: false, order: 1 }],
  ['creditcard', 101, 'creditcard-extra', 'Card', 1.75, 0.35, 100_000, cardExtra, cardExtraCountries, cardQuirks],
  ['apple-pay', 110, 'apple-pay', 'Apple Pay', 3.5, 0.35, 20_000, card, applePayCountries, { order: 2 }],
  ['apple-pay', 111, 'apple-pay-extra', 'Apple Pay', 2.5, 0.35, 20_000, walletFiats, usCaGb],
  ['google-pay', 120, 'google-pay', 'Google Pay', 3.5, 0.35, 20_000, [...card, ...codes('INR IDR BRL MXN')], googlePayCountries],
  ['google-pay', 121, 'google-pay-extra', 'Google Pay', 2.5, 0.35, 20_000, walletFiats, usCaGb],
  ['bank-transfer', 130, 'sepa-bank-transfer', 'SEPA Bank Transfer', 0.5, 0, 1_000_000, 'EUR', euroArea, { ...bank, baseFeeShape: 'null' }],
  ['bank-transfer', 131, 'local-bank-transfer', 'Bank Transfer', 0.9, 0.5, 500_000, localBankFiats, nonEuroEea, bank],
  ['bank-transfer', 132, 'faster-payments', 'Faster Payments', 0.5, 0, 500_000, 'GBP', 'GB', { ...bank, baseFeeShape: 'null' }],
  ['bank-transfer', 133, 'ach-bank-transfer', 'ACH Bank Transfer', 1, 0.5, 250_000, 'USD', 'US', { ...bank, baseFeeShape: 'base_fee-key' }],
  ['pix', 140, 'pix', 'PIX', 1.5, 0.1, 50_000, 'BRL', 'BR', { default: true }],
  ['blik', 141, 'blik', 'BLIK', 1.9, 0.2, 10_000, 'PLN', 'PL'],
  ['spei', 142, 'spei', 'SPEI', 1.5, 0.25, 50_000, 'MXN', 'MX'],
  ['interac', 143, 'interac-extra', 'Interac e-Transfer', 1.5, 0.3, 10_000, 'CAD', 'CA'],
  ['mobile-money', 144, 'mobile-money', 'Mobile Money', 2.9, 0.15, 2_000, 'KES ZMW', 'KE ZM', { default: true }],
  ['gcash', 145, 'gcash', 'GCash', 2.5, 0.1, 5_000, 'PHP', 'PH'],
  ['upi', 146, 'upi', 'UPI', 1.5, 0.1, 2_500, 'INR', 'IN'],
  ['vietqr', 147, 'vietqr', 'VietQR', 1.5, 0.1, 5_000, 'VND', 'VN'],
  ['promptpay', 148, 'promptpay', 'PromptPay', 1.5, 0.1, 5_000, 'THB', 'TH'],
  ['skrill', 150, 'skrill-extra', 'Skrill', 3, 0.6, 25_000, 'EUR DKK GBP USD', without(countryCodes, 'US NG'), { ...eWallet, kyc_required: false, order: 5 }],
  ['neteller', 151, 'neteller', 'Neteller', 3, 0.6, 25_000, 'EUR GBP USD', without(countryCodes, 'US NG IN'), eWallet],
  ['paypal', 152, 'paypal', 'PayPal', 4.5, 0.35, 10_000, 'USD EUR GBP CAD AUD', payPalCountries],
  ['revolutpay', 153, 'revolutpay', 'Revolut Pay', 1.5, 0.2, 20_000, revolutFiats, europe],
  ['astropay', 154, 'astropay', 'AstroPay', 3.5, 0.3, 5_000, 'USD', astroPayCountries, { baseFeeShape: 'base_fee-key' }],
  ['mercadopago', 155, 'mercadopago', 'Mercado Pago', 2.9, 0.15, 5_000, 'MXN ARS COP BRL', latam],
  ['vipps', 156, 'vipps', 'Vipps MobilePay', 1.9, 0.2, 5_000, 'NOK DKK', 'NO DK'],
  // Listed but switched off, as the live list has some: quoting it fails like an unavailable method.
  ['paysafecard', 157, 'paysafecard', 'Paysafecard', 5, 0.5, 1_000, 'EUR GBP', without(europe, 'CH'), { disabled: true, min_amount: 10 }],
];

export const paymentMethods: readonly PaymentMethodSpec[] = onRampRows.map(([group, ...row]) => ({
  ...methodOf(row, group),
  payment_group: group,
}));

export const paymentGroups: readonly string[] = [...new Set(paymentMethods.map((m) => m.payment_group))];

/**
 * Off-ramp methods of docs/upstream.md#payout-methods (icon named after the slug); the sample quote (skrill,
 * 500 EUR, fee 18.10) fixes skrill at 3.5% + 0.60.
 */
const payoutRows: readonly MethodRow[] = [
  [201, 'bank-transfer', 'Bank Transfer', 1, 1, 1_000_000, 'EUR DKK GBP', countryCodes, { default: true }],
  [202, 'skrill', 'Skrill', 3.5, 0.6, 25_000, 'EUR DKK GBP', countryCodes, eWallet],
  [203, 'pix', 'PIX', 1, 0.1, 50_000, 'BRL', 'BR'],
  [204, 'interac-extra', 'Interac e-Transfer', 1.5, 0.3, 10_000, 'CAD', 'CA', { icon: 'interac' }],
];

export const payoutMethods: readonly MethodSpec[] = payoutRows.map((row) => methodOf(row, row[1]));

export const findCountry = (iso: string | undefined) =>
  iso ? countries.find((c) => c.iso === iso.toUpperCase()) : undefined;
export const findFiat = (iso: string | undefined) =>
  iso ? fiats.find((f) => f.iso === iso.toUpperCase()) : undefined;
/** Accepts every tag of a crypto (`usdc_base` as well as `USDC_BASE`). */
export const findCrypto = (code: string | undefined) =>
  code ? cryptos.find((c) => cryptoTags(c).includes(code) || c.iso === code.toUpperCase()) : undefined;
export const findPayoutMethod = (slug: string | undefined) => payoutMethods.find((m) => m.slug === slug);

/** Response shapes of the backend API (packages/backend/API.md); amounts are decimal strings. */

export type Side = 'buy' | 'sell';

export interface Product {
  id?: string;
  name: string;
  description?: string | null;
  image?: string | null;
  price: string;
  currency: string;
  reference?: string;
}

export interface VerifiedToken {
  product: Product;
  expiresAt: string;
}

export interface Country {
  code: string;
  name: string;
  currency: string;
}

export interface Fiat {
  code: string;
  name: string;
}

export interface Crypto {
  code: string;
  symbol: string;
  name: string;
  network: string;
  networkName: string;
  type: 'token' | 'coin';
  networkFee: string;
  icon: string | null;
}

export interface Method {
  id: string;
  name: string;
  feePercent: string;
  fixedFee: string;
  min: string;
  max: string;
  limits: { currency: string; min: string; max: string };
  currencies: string[];
  icon: string | null;
  iconLight: string | null;
  isDefault: boolean;
}

export interface Chain {
  id: string;
  name: string;
}

export interface Catalog {
  country: string;
  countries: Country[];
  fiats: Fiat[];
  cryptos: Crypto[];
  paymentMethods: Method[];
  payoutMethods: Method[];
  chains: Chain[];
  defaults: {
    country: string;
    fiat: string;
    crypto: string;
    paymentMethod: string | null;
    payoutMethod: string | null;
  };
}

export interface QuoteBody {
  paymentMethod?: string;
  payoutMethod?: string;
  country: string;
  fiat: string;
  crypto: string;
  fiatAmount?: string;
  cryptoAmount?: string;
}

export interface Quote {
  side: Side;
  input: 'fiat' | 'crypto';
  estimate: boolean;
  fiat: { currency: string; amount: string; total: string };
  crypto: { currency: string; amount: string };
  rate: string;
  fees: { processing: string; network: string; markup: string; total: string; currency: string };
  paymentMethod: string;
  paymentGroup?: string;
  pricedAt: string;
  expiresAt: string;
}

export type OrderStatus =
  | 'pending'
  | 'awaiting_payment'
  | 'underpaid'
  | 'paid'
  | 'overpaid'
  | 'expired'
  | 'failed';

export interface OrderBody {
  product?: string;
  checkoutToken?: string;
  customer?: { name?: string; email?: string; country?: string; lang?: string };
  returnUrl?: string;
}

export interface Order {
  orderId: string;
  link: string;
  status: OrderStatus;
  expiresAt: string;
  statusToken: string;
  product: { name: string; price: string; currency: string };
}

export interface OrderView {
  orderId: string;
  status: OrderStatus;
  final: boolean;
  amount?: string;
  currency?: string;
  paid?: { amount: string; currency: string };
  returnUrl?: string;
  updatedAt?: string;
}

export interface RampSessionBody {
  side: Side;
  method?: string;
  country?: string;
  fiat: string;
  crypto: string;
  fiatAmount?: string;
  cryptoAmount?: string;
  walletAddress?: string;
  email?: string;
  returnUrl?: string;
}

export interface RampSession {
  url: string;
  origin: string;
  expiresAt?: string;
}

export interface DepositAddress {
  chain: string;
  address: string;
  memo: string | null;
  currencies: string[];
  qrSvg: string;
  createdAt: string;
  reused: boolean;
}

/** The payment-method logos `img_url`/`img_url_light` point at: small generated SVGs, one per icon name. */

const marks: Readonly<Record<string, { label: string; color: string }>> = {
  creditcard: { label: 'CARD', color: '#1f4fd1' },
  'apple-pay': { label: 'Pay', color: '#111111' },
  'google-pay': { label: 'G Pay', color: '#3c64d8' },
  'bank-transfer': { label: 'BANK', color: '#1d6b53' },
  pix: { label: 'PIX', color: '#32bcad' },
  blik: { label: 'BLIK', color: '#222222' },
  spei: { label: 'SPEI', color: '#a4262c' },
  interac: { label: 'e-T', color: '#f5a800' },
  'mobile-money': { label: 'M-M', color: '#43a047' },
  gcash: { label: 'G', color: '#0066ff' },
  upi: { label: 'UPI', color: '#ef6c00' },
  vietqr: { label: 'QR', color: '#d32f2f' },
  promptpay: { label: 'PP', color: '#113566' },
  skrill: { label: 'Skrill', color: '#862165' },
  neteller: { label: 'NT', color: '#83ba3b' },
  paypal: { label: 'PP', color: '#003087' },
  revolutpay: { label: 'R', color: '#191c1f' },
  astropay: { label: 'AP', color: '#e11b22' },
  mercadopago: { label: 'MP', color: '#009ee3' },
  vipps: { label: 'V', color: '#ff5b24' },
  paysafecard: { label: 'psc', color: '#008ac9' },
};

/** The SVG for `name` (e.g. `creditcard` or `creditcardlight`), or undefined when there is no such icon. */
export function iconSvg(name: string): string | undefined {
  const light = name.endsWith('light');
  const mark = marks[light ? name.slice(0, -'light'.length) : name];
  if (!mark) return undefined;
  // The light variant is for dark backgrounds: outlined in white instead of filled with the brand colour.
  const box = light
    ? `<rect x="1" y="1" width="62" height="38" rx="7" fill="none" stroke="#ffffff" stroke-width="2"/>`
    : `<rect width="64" height="40" rx="8" fill="${mark.color}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40" viewBox="0 0 64 40" role="img" aria-label="${mark.label}">${box}<text x="32" y="25" text-anchor="middle" font-family="system-ui,sans-serif" font-size="13" font-weight="700" fill="#ffffff">${mark.label}</text></svg>`;
}

/** Decimal strings for money: never floats in our API, and no float arithmetic on amounts. */

/** A number as a plain decimal string (`2.5e-7` → `"0.00000025"`). */
export function decimalString(value: number | string): string {
  if (typeof value === 'string') return value.trim();
  if (!Number.isFinite(value)) return '0';
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

const pattern = /^(-?)(\d*)(?:\.(\d*))?$/;

/** Sums decimal strings exactly (BigInt on a common scale); unparsable parts count as zero. */
export function addDecimals(values: string[]): string {
  const parsed = values
    .map((value) => pattern.exec(value.trim()))
    .filter((match): match is RegExpExecArray => match !== null);
  const scale = Math.max(0, ...parsed.map((match) => (match[3] ?? '').length));
  let total = 0n;
  for (const [, sign, whole, fraction = ''] of parsed) {
    const units = BigInt(`${whole || '0'}${fraction.padEnd(scale, '0')}`);
    total += sign === '-' ? -units : units;
  }
  const negative = total < 0n;
  const digits = (negative ? -total : total).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale ? digits.slice(-scale).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A country's flag: an SVG the merchant's backend serves (`{api}/flags/de.svg`), named for screen readers. */
import { html, type TemplateResult } from 'lit';

export const flagUrl = (api: string, code: string): string =>
  `${api.replace(/\/+$/, '')}/flags/${code.toLowerCase()}.svg`;

/**
 * The flag of ISO 3166 `code`. `name`, the country's name in the shopper's locale, is its text where nothing
 * beside it names the country; '' where text does (a screen reader would read the name twice). Loaded when
 * scrolled into view: a list of 250 countries fetches the dozen it shows.
 */
export const flagIcon = (api: string, code: string, name: string): TemplateResult | undefined =>
  /^[A-Z]{2}$/.test(code)
    ? html`<img class="flag" src=${flagUrl(api, code)} alt=${name} width="20" height="15" loading="lazy" decoding="async" />`
    : undefined;

/** Small render pieces every view and the picker use. */
import { html, nothing, type TemplateResult } from 'lit';
import { toApiError } from '../api/client.ts';
import { errorKey, msg } from '../internal/messages.ts';

/** The placeholder shown while something loads. */
export const skeleton = (loc: string): TemplateResult =>
  html`<div class="skeleton" role="status">
    <span class="sr">${msg(loc, 'loading')}</span><i></i><i></i><i></i>
  </div>`;

/** A control with its label. */
export const field = (id: string, label: string, control: TemplateResult): TemplateResult =>
  html`<div class="field"><label for=${id}>${label}</label>${control}</div>`;

/**
 * A failure in words, with a retry when trying again may help. `always`: a read that failed, retried whatever
 * the code; a refusal there is not the shopper's to fix, so it never reads "check your details".
 */
export function errorBox(loc: string, e: unknown, retry?: () => void, always = false): TemplateResult {
  const err = toApiError(e);
  const key = errorKey(err.code);
  return html`<div class="error" role="alert">
    <p>${msg(loc, always && key === 'eInput' ? 'eRetry' : key)}</p>
    ${retry && (always || err.retryable) ? html`<button type="button" @click=${retry}>${msg(loc, 'retry')}</button>` : nothing}
  </div>`;
}

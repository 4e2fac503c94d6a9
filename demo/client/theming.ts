/** The theming page: the element's CSS custom properties, theme and locale changed live. */
import { attachCopyButtons } from './lib/copy.ts';

const form = document.querySelector<HTMLFormElement>('#theme-form')!;
const checkout = document.querySelector<HTMLElement>('#checkout')!;
const preview = document.querySelector<HTMLElement>('#preview')!;
const code = document.querySelector<HTMLElement>('#theme-code')!;

function apply(): void {
  const data = new FormData(form);
  const value = (name: string) => String(data.get(name) ?? '');
  const radius = `${value('radius')}px`;
  checkout.style.setProperty('--checkout-accent', value('accent'));
  checkout.style.setProperty('--checkout-radius', radius);
  checkout.style.setProperty('--checkout-font-family', value('font'));
  checkout.setAttribute('theme', value('theme'));
  checkout.setAttribute('locale', value('locale'));
  if (checkout.getAttribute('mode') !== value('mode')) checkout.setAttribute('mode', value('mode'));
  const dark =
    value('theme') === 'dark' ||
    (value('theme') === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  preview.toggleAttribute('data-dark', dark);
  document.querySelector('#t-radius-value')!.textContent = radius;
  code.textContent = `crypto-checkout {
  --checkout-accent: ${value('accent')};
  --checkout-radius: ${radius};
  --checkout-font-family: ${value('font')};
}

<crypto-checkout mode="${value('mode')}" theme="${value('theme')}" locale="${value('locale')}"></crypto-checkout>`;
}

form.addEventListener('input', apply);
form.addEventListener('change', apply);
attachCopyButtons();
apply();

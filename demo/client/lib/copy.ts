/** Copy buttons: `<button data-copy="#selector">` copies that element's text (or an input's value). */

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (insecure context, permissions): fall back to a selection copy.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

export function flash(button: HTMLElement, text: string): void {
  const original = button.dataset['label'] ?? button.textContent ?? '';
  button.dataset['label'] = original;
  button.textContent = text;
  setTimeout(() => {
    button.textContent = original;
  }, 1500);
}

export function attachCopyButtons(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const source = document.querySelector(button.dataset['copy'] ?? '');
      if (!source) return;
      const text = source instanceof HTMLInputElement ? source.value : (source.textContent ?? '');
      flash(button, (await copyText(text)) ? 'Copied' : 'Copy failed');
    });
  }
}

// The searchable picker on its own, in a small host element: what a shopper does with it (type, arrows, Enter,
// Escape, click) and what a screen reader is told (combobox, listbox, active option).
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { LitElement } from 'lit';
import { Picker } from '../../src/picker/picker.ts';
import type { PickerItem } from '../../src/picker/picker-state.ts';
import { shadowQuery } from '../support.ts';
import { openPicker, optionsOf } from './checkout-helpers.ts';

const fruits: PickerItem[] = ['Apple', 'Apricot', 'Banana', 'Blueberry', 'Cherry', 'Pineapple'].map(
  (name) => ({
    code: name.slice(0, 3).toUpperCase(),
    text: name,
    search: name,
    body: name,
  }),
);

class PickerHost extends LitElement {
  static override properties = { value: {} };
  value = 'BAN';
  picks: string[] = [];
  /** How many times the picker asked for its entries. */
  asked = 0;
  picker = new Picker(this, 'fruit');
  override render() {
    return this.picker.render(
      'Fruit',
      () => {
        this.asked++;
        return fruits;
      },
      fruits.find((f) => f.code === this.value),
      (code) => {
        this.picks.push(code);
        this.value = code;
      },
    );
  }
}
customElements.define('picker-host', PickerHost);

/** The options' texts once the list shows (its code loads on the picker's first touch). */
const optionTexts = async (host: PickerHost) =>
  (await optionsOf(host, 'fruit')).map((o) => o.textContent!.trim());

describe('picker', () => {
  it('shows the value, labelled, as a closed combobox', async () => {
    const host = await fixture<PickerHost>(html`<picker-host></picker-host>`);
    const input = shadowQuery<HTMLInputElement>(host, '#fruit');
    expect(input.value).to.equal('Banana');
    expect(input.getAttribute('role')).to.equal('combobox');
    expect(input.getAttribute('aria-expanded')).to.equal('false');
    expect(input.labels![0]!.textContent).to.equal('Fruit');
    expect(shadowQuery(host, '#fruit-list').hidden).to.equal(true);
    await expect(host).to.be.accessible();
  });

  it('asks for its entries only while its list is open (a long list is not named and sorted for nothing)', async () => {
    const host = await fixture<PickerHost>(html`<picker-host></picker-host>`);
    await host.picker.load();
    host.requestUpdate();
    await host.updateComplete;
    expect(shadowQuery<HTMLInputElement>(host, '#fruit').value).to.equal('Banana');
    expect(host.asked).to.equal(0);
    expect(await openPicker(host, '#fruit')).to.have.length(fruits.length);
    expect(host.asked).to.be.greaterThan(0);
  });

  it('filters as the shopper types, matches at a word start first, and Enter picks the active option', async () => {
    const host = await fixture<PickerHost>(html`<picker-host></picker-host>`);
    const input = shadowQuery<HTMLInputElement>(host, '#fruit');
    input.focus();
    await sendKeys({ type: 'app' });
    await host.updateComplete;
    // "Apple" starts with it; "Pineapple" only contains it.
    expect(await optionTexts(host)).to.deep.equal(['Apple', 'Pineapple']);
    expect(input.getAttribute('aria-expanded')).to.equal('true');
    await sendKeys({ press: 'ArrowDown' });
    await host.updateComplete;
    expect(input.getAttribute('aria-activedescendant')).to.equal('fruit-1');
    await expect(host).to.be.accessible();
    await sendKeys({ press: 'Enter' });
    await host.updateComplete;
    expect(host.picks).to.deep.equal(['PIN']);
    expect(input.value).to.equal('Pineapple');
    expect(input.getAttribute('aria-expanded')).to.equal('false');
  });

  it('Escape closes the list and keeps the value; a click picks; the same value is not picked again', async () => {
    const host = await fixture<PickerHost>(html`<picker-host></picker-host>`);
    const input = shadowQuery<HTMLInputElement>(host, '#fruit');
    input.focus();
    await sendKeys({ type: 'ch' });
    await host.updateComplete;
    await sendKeys({ press: 'Escape' });
    await host.updateComplete;
    expect(input.value).to.equal('Banana');
    expect(host.picks).to.deep.equal([]);
    input.click();
    await host.updateComplete;
    expect(await optionTexts(host)).to.have.length(6);
    const option = (text: string) =>
      [...host.shadowRoot!.querySelectorAll<HTMLElement>('#fruit-list [role="option"]')].find(
        (o) => o.textContent!.trim() === text,
      )!;
    option('Banana').click();
    await host.updateComplete;
    expect(host.picks, 'the value it already has').to.deep.equal([]);
    input.click();
    await host.updateComplete;
    option('Cherry').click();
    await host.updateComplete;
    expect(host.picks).to.deep.equal(['CHE']);
    expect(input.value).to.equal('Cherry');
  });

  it('opens from the keyboard at once, before or after its list’s code is here, and Enter picks', async () => {
    // A fresh picker shows its value without the list's code; the first key loads it and the list opens then.
    const host = await fixture<PickerHost>(html`<picker-host></picker-host>`);
    const input = shadowQuery<HTMLInputElement>(host, '#fruit');
    expect(input.value).to.equal('Banana');
    input.focus();
    await sendKeys({ press: 'ArrowDown' });
    expect(input.getAttribute('aria-expanded')).to.equal('true');
    expect(await optionTexts(host)).to.deep.equal([
      'Apple',
      'Apricot',
      'Banana',
      'Blueberry',
      'Cherry',
      'Pineapple',
    ]);
    // It opens on the current value (Banana), as a native select does; the arrows go on from there.
    expect(input.getAttribute('aria-activedescendant')).to.equal('fruit-2');
    await sendKeys({ press: 'ArrowDown' });
    await host.updateComplete;
    await sendKeys({ press: 'Enter' });
    await host.updateComplete;
    expect(host.picks).to.deep.equal(['BLU']);
    expect(input.value).to.equal('Blueberry');
    expect(shadowQuery(host, '#fruit-list').hidden).to.equal(true);
  });

  it('closes when focus leaves, without picking', async () => {
    const host = await fixture<PickerHost>(html`<picker-host></picker-host>`);
    const input = shadowQuery<HTMLInputElement>(host, '#fruit');
    input.focus();
    await sendKeys({ type: 'blue' });
    await host.updateComplete;
    expect(await optionTexts(host)).to.deep.equal(['Blueberry']);
    input.blur();
    await host.updateComplete;
    expect(input.getAttribute('aria-expanded')).to.equal('false');
    expect(input.value).to.equal('Banana');
    expect(host.picks).to.deep.equal([]);
  });
});

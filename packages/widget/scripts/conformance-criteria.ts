/**
 * The accessibility conformance report's table: each WCAG 2.1 success criterion of levels A and AA (EN 301 549
 * clause 9 repeats them as 9.x.x.x), the element's conformance level, what backs it, and the remarks. A level that
 * rests on tests names them (file and test title); what was checked by hand says so in `byHand`. The report is
 * generated from this table (`npm run a11y-report`, conformance-report.ts) and a test compares it with the committed
 * one: edit here, then run the command.
 */

export type Conformance = 'Supports' | 'Partially Supports' | 'Does Not Support' | 'Not Applicable';

/** A browser test of packages/widget/test/browser: its file and its `it()` title, as written. */
export interface TestRef {
  file: string;
  test: string;
}

export interface Criterion {
  id: string;
  name: string;
  level: 'A' | 'AA';
  conformance: Conformance;
  remarks: string;
  tests?: TestRef[];
  /** What a person checked, and how, where no test does. */
  byHand?: string;
}

const t = (file: string, test: string): TestRef => ({ file, test });

const axeModes = [
  t(
    'ramp.test.ts',
    'loads the catalog once (skeleton, then ready) with pickers, methods and their fees and limits',
  ),
  t('pay.test.ts', 'shows a skeleton while loading, then the product as the backend states it'),
  t(
    'deposit.test.ts',
    'shows the address for the first chain with a QR code (as an inert image), and the same one again',
  ),
  t('accessibility.test.ts', 'axe finds nothing in each mode in the dark theme, colour contrast included'),
];
const names = t(
  'accessibility.test.ts',
  'names every control in every language the element speaks (buy and deposit forms)',
);
const keyboard = [
  t(
    'ramp-pickers.test.ts',
    'picks a crypto with the keyboard in the searchable list, and continues with the keyboard alone',
  ),
  t('pay.test.ts', 'can be completed with the keyboard alone'),
  t(
    'ramp-pickers.test.ts',
    'moves between the payment methods with the arrow keys, the focused one with its focus ring',
  ),
  t(
    'picker.test.ts',
    'opens from the keyboard at once, before or after its list’s code is here, and Enter picks',
  ),
];
const modalKeys = [
  t(
    'modal-keyboard.test.ts',
    'pay: Escape in the payment page closes it, and focus goes to "Open the payment page", which opens it again',
  ),
  t(
    'modal-keyboard.test.ts',
    'buy: Escape in the ramp page, or with focus on the page around it, closes it; focus goes back to Continue',
  ),
];
const rtlBuy = t(
  'rtl.test.ts',
  'buy in Arabic: the form mirrors (labels, pickers, methods, quote rows) and tabs from right to left; amounts stay left to right',
);
const phonePicker = (locale: string) =>
  t(
    'phone-picker.test.ts',
    `${locale}: the payment methods opened at the bottom of the screen show in view, the current one active and in sight, with no keyboard`,
  );

export const criteria: Criterion[] = [
  {
    id: '1.1.1',
    name: 'Non-text Content',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'The QR code is an image named by its alt text; the country flag beside the closed country field is named by the country; logos beside a method’s name are decorative (empty alt). axe checks every image in each mode.',
    tests: [...axeModes, names],
  },
  ...(
    [
      ['1.2.1', 'Audio-only and Video-only (Prerecorded)', 'A'],
      ['1.2.2', 'Captions (Prerecorded)', 'A'],
      ['1.2.3', 'Audio Description or Media Alternative (Prerecorded)', 'A'],
      ['1.2.4', 'Captions (Live)', 'AA'],
      ['1.2.5', 'Audio Description (Prerecorded)', 'AA'],
    ] as const
  ).map(
    ([id, name, level]): Criterion => ({
      id,
      name,
      level,
      conformance: 'Not Applicable',
      remarks: 'The element has no audio or video.',
      byHand: 'Code review: no audio, video or media element in packages/widget/src.',
    }),
  ),
  {
    id: '1.3.1',
    name: 'Info and Relationships',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'Every field has a label element; the methods are a fieldset with a legend; the quote is a description list; pickers are ARIA comboboxes controlling a listbox. axe checks the structure in each mode.',
    tests: [...axeModes, t('picker.test.ts', 'shows the value, labelled, as a closed combobox')],
  },
  {
    id: '1.3.2',
    name: 'Meaningful Sequence',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'The reading order is the DOM order in both directions; in right-to-left languages the layout mirrors while amounts, codes and addresses keep their left-to-right order.',
    tests: [rtlBuy],
  },
  {
    id: '1.3.3',
    name: 'Sensory Characteristics',
    level: 'A',
    conformance: 'Supports',
    remarks: 'No instruction refers to shape, position or colour alone.',
    byHand: 'Review of the English messages (src/**/*.messages.ts).',
  },
  {
    id: '1.3.4',
    name: 'Orientation',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'No orientation is locked; the layout follows the element’s width (container queries), tested at a phone’s 390 px.',
    tests: [phonePicker('en')],
  },
  {
    id: '1.3.5',
    name: 'Identify Input Purpose',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'The element asks for no personal data of the shopper (amounts, a country, a wallet address); the payment and ramp pages it frames are the upstream’s and outside this report.',
    byHand: 'Code review of the fields in src/ramp, src/pay and src/deposit.',
  },
  {
    id: '1.4.1',
    name: 'Use of Color',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'Errors are said in words under the field (and marked aria-invalid), a status has an icon and words, the picked method has a checked radio and the current option a check mark, not a colour alone.',
    tests: [t('ramp.test.ts', 'flags amounts outside the method limits inline, before any request')],
  },
  {
    id: '1.4.2',
    name: 'Audio Control',
    level: 'A',
    conformance: 'Not Applicable',
    remarks: 'The element plays no sound.',
    byHand: 'Code review: no audio in packages/widget/src.',
  },
  {
    id: '1.4.3',
    name: 'Contrast (Minimum)',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'axe’s colour-contrast rule passes in each mode in the light and the dark theme with the default tokens. A merchant who sets --checkout-* tokens chooses their own contrast.',
    tests: axeModes,
  },
  {
    id: '1.4.4',
    name: 'Resize text',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'Text is in px that browser zoom scales; the layout reflows with the element’s width (no fixed heights cut text).',
    tests: [
      t(
        'ramp-flow.test.ts',
        'shows the country name whole, its list as wide as the form, and the wallet address whole',
      ),
    ],
  },
  {
    id: '1.4.5',
    name: 'Images of Text',
    level: 'AA',
    conformance: 'Supports',
    remarks: 'No text is drawn as an image (method logos are the methods’ brands).',
    byHand: 'Code review of the images in src/ramp, src/pay and src/deposit.',
  },
  {
    id: '1.4.10',
    name: 'Reflow',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'At a phone’s 390 px every field, list and button fits the width; a picker opened near the bottom of the screen scrolls its list into view.',
    tests: [phonePicker('en'), phonePicker('de')],
  },
  {
    id: '1.4.11',
    name: 'Non-text Contrast',
    level: 'AA',
    conformance: 'Partially Supports',
    remarks:
      'The focus ring is the accent colour (#4f46e5, 6.3:1 on white) 3 px wide; field borders are the text colour at 30 % (about 1.9:1), under 3:1: the fields are identified by their labels and placement, not their borders alone.',
    tests: [keyboard[2] as TestRef],
    byHand: 'Contrast ratios computed from the default tokens in src/crypto-checkout.styles.ts.',
  },
  {
    id: '1.4.12',
    name: 'Text Spacing',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'No fixed heights on text containers: fields and lines grow with their text (the address fields grow with the address).',
    tests: [
      t(
        'ramp-flow.test.ts',
        'shows the country name whole, its list as wide as the form, and the wallet address whole',
      ),
    ],
  },
  {
    id: '1.4.13',
    name: 'Content on Hover or Focus',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'A picker’s list opens on click, a key or typing, not on hover; Escape closes it and keeps the value.',
    tests: [
      t(
        'picker.test.ts',
        'Escape closes the list and keeps the value; a click picks; the same value is not picked again',
      ),
    ],
  },
  {
    id: '2.1.1',
    name: 'Keyboard',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'Buy, sell and pay are completed with the keyboard alone: pickers with arrows, Enter and Escape; methods with arrows.',
    tests: keyboard,
  },
  {
    id: '2.1.2',
    name: 'No Keyboard Trap',
    level: 'A',
    conformance: 'Supports',
    remarks: 'Escape closes the modal wherever focus is, and focus goes back to the control that opened it.',
    tests: modalKeys,
  },
  {
    id: '2.1.4',
    name: 'Character Key Shortcuts',
    level: 'A',
    conformance: 'Not Applicable',
    remarks:
      'The element defines no single-character shortcut (only arrows, Enter, Escape and Tab, in the control that has focus).',
    byHand: 'Code review of every keydown handler in packages/widget/src.',
  },
  {
    id: '2.2.1',
    name: 'Timing Adjustable',
    level: 'A',
    conformance: 'Partially Supports',
    remarks:
      'A payment order expires when the upstream says (its quote is priced for a time); the element then says so and offers to start again as a new order. The limit is the upstream’s, not adjustable by the shopper.',
    tests: [t('pay.test.ts', 'shows expired with a way to start again, as a new order')],
  },
  {
    id: '2.2.2',
    name: 'Pause, Stop, Hide',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'The only motion is the loading skeleton’s pulse, stopped when the shopper asks for reduced motion.',
    tests: [
      t(
        'theming.test.ts',
        'follows the system in auto, stops the skeleton for reduced motion, and colours text and errors',
      ),
    ],
  },
  {
    id: '2.3.1',
    name: 'Three Flashes or Below Threshold',
    level: 'A',
    conformance: 'Supports',
    remarks: 'Nothing flashes (the pulse is under once a second, and stops for reduced motion).',
    byHand: 'Code review of the animations in src/**/*.styles.ts (0.9 s and 1.2 s alternating).',
  },
  {
    id: '2.4.1',
    name: 'Bypass Blocks',
    level: 'A',
    conformance: 'Not Applicable',
    remarks: 'The element is one block of a merchant’s page; bypassing blocks is the page’s.',
  },
  {
    id: '2.4.2',
    name: 'Page Titled',
    level: 'A',
    conformance: 'Not Applicable',
    remarks: 'The element is part of a page; its modal dialog is titled by what is being paid.',
  },
  {
    id: '2.4.3',
    name: 'Focus Order',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'Tab follows the form’s order (country, currency, crypto, method, amounts, Continue) in both directions; focus returns to the checkout when its modal closes.',
    tests: [keyboard[0] as TestRef, rtlBuy, ...modalKeys],
  },
  {
    id: '2.4.4',
    name: 'Link Purpose (In Context)',
    level: 'A',
    conformance: 'Supports',
    remarks: 'The one link (open the payment page in a new tab) says what it opens.',
    tests: [
      t(
        'frame.test.ts',
        'links the page in a new tab while the frame is silent, and drops the offer once the page speaks',
      ),
    ],
  },
  {
    id: '2.4.5',
    name: 'Multiple Ways',
    level: 'AA',
    conformance: 'Not Applicable',
    remarks: 'A property of a set of pages, not of one element.',
  },
  {
    id: '2.4.6',
    name: 'Headings and Labels',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'Each field’s label says what it takes, with its unit (“You pay (EUR)”), in each language the element speaks.',
    tests: [names],
  },
  {
    id: '2.4.7',
    name: 'Focus Visible',
    level: 'AA',
    conformance: 'Supports',
    remarks: 'A 3 px ring in the accent colour on the focused control, radios included (WebKit too).',
    tests: [keyboard[2] as TestRef],
  },
  {
    id: '2.5.1',
    name: 'Pointer Gestures',
    level: 'A',
    conformance: 'Supports',
    remarks: 'Every action is one tap or click; no path-based or multipoint gesture.',
    byHand: 'Code review of the event handlers in packages/widget/src.',
  },
  {
    id: '2.5.2',
    name: 'Pointer Cancellation',
    level: 'A',
    conformance: 'Supports',
    remarks: 'Actions run on click (the up event); an option’s mousedown only keeps focus in the field.',
    byHand: 'Code review of the event handlers in packages/widget/src.',
  },
  {
    id: '2.5.3',
    name: 'Label in Name',
    level: 'A',
    conformance: 'Supports',
    remarks: 'Controls are named by their visible label or text.',
    tests: [names],
  },
  {
    id: '2.5.4',
    name: 'Motion Actuation',
    level: 'A',
    conformance: 'Not Applicable',
    remarks: 'Nothing responds to device motion.',
  },
  {
    id: '3.1.1',
    name: 'Language of Page',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'The page’s language is the merchant’s; the element marks its own content with the language it shows (lang on its root).',
    tests: [t('ramp-locale.test.ts', 'switches language and number format with locale')],
  },
  {
    id: '3.1.2',
    name: 'Language of Parts',
    level: 'AA',
    conformance: 'Supports',
    remarks: 'The element’s words carry their language (lang), and right-to-left languages their direction.',
    tests: [rtlBuy, t('ramp-locale.test.ts', 'switches language and number format with locale')],
  },
  {
    id: '3.2.1',
    name: 'On Focus',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'Focus changes nothing but selecting a field’s text; a list closes without picking when focus leaves.',
    tests: [t('picker.test.ts', 'closes when focus leaves, without picking')],
  },
  {
    id: '3.2.2',
    name: 'On Input',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'Typing an amount updates the quote beside it; picking a country updates its currency and methods, as the shopper expects of the form. Nothing is submitted or opened without Continue or Pay.',
    tests: [
      t(
        'ramp.test.ts',
        'typing the fiat amount fills the crypto amount from a live quote, and shows the quote',
      ),
    ],
  },
  {
    id: '3.2.3',
    name: 'Consistent Navigation',
    level: 'AA',
    conformance: 'Not Applicable',
    remarks: 'A property of a set of pages.',
  },
  {
    id: '3.2.4',
    name: 'Consistent Identification',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'The same control has the same name in every mode (the pickers, the main button’s part and role).',
    tests: [names],
  },
  {
    id: '3.3.1',
    name: 'Error Identification',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'An amount outside the limits, a missing wallet address or a failed request is said in words, in an alert, beside the field.',
    tests: [
      t('ramp.test.ts', 'flags amounts outside the method limits inline, before any request'),
      t('ramp.test.ts', 'asks for it inline before Continue sends anything, then sends what was typed'),
    ],
  },
  {
    id: '3.3.2',
    name: 'Labels or Instructions',
    level: 'A',
    conformance: 'Supports',
    remarks: 'Every field is labelled; buy says what Continue waits for while no amount is typed.',
    tests: [
      t(
        'dead-ends.test.ts',
        'buy without an amount says what Continue waits for, and the hint goes once an amount is typed',
      ),
      names,
    ],
  },
  {
    id: '3.3.3',
    name: 'Error Suggestion',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'A limit error states the minimum or maximum; a dead end offers the currency or country that works, in one click.',
    tests: [
      t(
        'dead-ends.test.ts',
        'sell in Brazil in USD says no method takes it and switches to the currency that has one in one click',
      ),
      t('dead-ends.test.ts', 'a huge amount typed as 1e12 is told the maximum, not called invalid'),
    ],
  },
  {
    id: '3.3.4',
    name: 'Error Prevention (Legal, Financial, Data)',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'Nothing is charged in the element: Continue and Pay open the upstream’s page, where the shopper reviews and confirms; the summary line says what was sent and Change brings the form back.',
    tests: [
      t(
        'ramp-flow.test.ts',
        'buy: after Continue the amount is asked nowhere in the element, a summary line says what was sent, and Change brings the form back with the amount kept',
      ),
    ],
  },
  {
    id: '4.1.1',
    name: 'Parsing',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'The element’s markup is generated by Lit; no id is used twice (WCAG 2.2 retires this criterion).',
    tests: [t('ids.test.ts', 'pay and deposit: no duplicate id')],
  },
  {
    id: '4.1.2',
    name: 'Name, Role, Value',
    level: 'A',
    conformance: 'Supports',
    remarks:
      'Native controls, and ARIA comboboxes (aria-expanded, aria-activedescendant, the active option aria-selected); every control named in every language.',
    tests: [
      ...axeModes,
      names,
      t(
        'picker.test.ts',
        'filters as the shopper types, matches at a word start first, and Enter picks the active option',
      ),
    ],
  },
  {
    id: '4.1.3',
    name: 'Status Messages',
    level: 'AA',
    conformance: 'Supports',
    remarks:
      'A new quote, an order’s status, a copy of the address and errors are announced in live regions (status, alert, aria-live).',
    tests: [
      t('deposit.test.ts', 'copies the address and announces it'),
      t('pay.test.ts', 'a double click makes one order, and the order is shown inline with its status'),
    ],
  },
];

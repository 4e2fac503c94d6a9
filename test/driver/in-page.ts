/**
 * The locator engine that runs inside the page for Firefox and WebKit (Chromium's tests use Playwright's own):
 * resolves a chain of steps (CSS through open shadow roots, role and accessible name, text, label, filters) to
 * elements in one document, and acts on them. It is bundled by esbuild into a string and sent with each call
 * (see driver/page.ts), so it imports nothing and touches no global state.
 *
 * The semantics follow Playwright's where the tests rely on them: a string matches case-insensitively as a
 * substring of the whitespace-normalised text (exactly, with `exact`); a RegExp is tested against it; role
 * queries skip what is hidden from assistive technology.
 */

export type TextMatch = { string: string; exact?: boolean } | { source: string; flags: string };

export type Step =
  | { kind: 'css'; selector: string }
  | { kind: 'role'; role: string; name?: TextMatch; level?: number }
  | { kind: 'text'; text: TextMatch }
  | { kind: 'label'; text: TextMatch }
  | { kind: 'hasText'; text: TextMatch }
  | { kind: 'has'; steps: Step[] }
  | { kind: 'nth'; index: number }
  | { kind: 'or'; branches: Step[][] };

export type Request =
  | { op: 'count'; steps: Step[] }
  | { op: 'state'; steps: Step[] }
  | { op: 'element'; steps: Step[]; action: ElementAction; strict: boolean; arg?: unknown }
  | { op: 'all'; steps: Step[]; fn: string; arg?: unknown }
  | { op: 'page'; fn: string; arg?: unknown }
  | { op: 'frameOffset'; steps: Step[] }
  | { op: 'resolve'; steps: Step[] }
  | { op: 'clickResult' };

export type ElementAction =
  | 'textContent'
  | 'inputValue'
  | 'isVisible'
  | 'isDisabled'
  | 'boundingBox'
  | 'evaluate'
  | 'point'
  | 'focus'
  | 'fill'
  | 'selectOption';

export type Outcome = { ok: true; value: unknown } | { ok: false; retry: boolean; message: string };

export function run(request: Request, fn?: (...args: unknown[]) => unknown): Outcome | Promise<Outcome> {
  const normalize = (text: string) => text.replace(/[\s\u200b]+/g, ' ').trim();

  const matches = (match: TextMatch, raw: string): boolean => {
    const text = normalize(raw);
    if ('source' in match) return new RegExp(match.source, match.flags).test(text);
    if (match.exact) return text === normalize(match.string);
    return text.toLowerCase().includes(normalize(match.string).toLowerCase());
  };

  /** Children in the flat sense the tests mean: a shadow root's children as well as the light ones. */
  const childElements = (node: Element | Document | ShadowRoot): Element[] => {
    const list: Element[] = [];
    if (node instanceof Element && node.shadowRoot) list.push(...node.shadowRoot.children);
    // A document being replaced (a navigation under way) can be without its root element for a moment.
    if (node instanceof Document) {
      if (node.documentElement) list.push(node.documentElement);
    } else list.push(...node.children);
    return list;
  };

  const descendants = (scope: Element | Document): Element[] => {
    const all: Element[] = [];
    const walk = (node: Element | Document | ShadowRoot) => {
      for (const child of childElements(node)) {
        all.push(child);
        walk(child);
      }
    };
    walk(scope);
    return all;
  };

  const skipped = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'TITLE', 'META', 'LINK']);

  /** The text an element shows: light children (or its shadow tree's, with slots filled). */
  const elementText = (element: Element): string => {
    let text = '';
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        text += node.nodeValue ?? '';
        return;
      }
      if (!(node instanceof Element) || skipped.has(node.tagName)) return;
      if (node instanceof HTMLSlotElement) {
        const assigned = node.assignedNodes({ flatten: true });
        for (const child of assigned.length ? assigned : [...node.childNodes]) walk(child);
        return;
      }
      const children = node.shadowRoot ? [...node.shadowRoot.childNodes] : [...node.childNodes];
      for (const child of children) walk(child);
    };
    walk(element);
    return text;
  };

  const isVisible = (element: Element): boolean => {
    const style = getComputedStyle(element);
    if (style.display === 'contents') return [...element.children].some(isVisible);
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden';
  };

  const parentOf = (element: Element): Element | null =>
    element.assignedSlot ??
    element.parentElement ??
    ((element.getRootNode() as ShadowRoot).host as Element | undefined) ??
    null;

  /** Hidden from assistive technology: not rendered, visibility hidden, or under aria-hidden="true". */
  const hiddenForAria = (element: Element): boolean => {
    if (typeof element.checkVisibility === 'function' && !element.checkVisibility()) return true;
    if (getComputedStyle(element).visibility === 'hidden') return true;
    for (let node: Element | null = element; node; node = parentOf(node)) {
      if (node.getAttribute('aria-hidden') === 'true') return true;
    }
    return false;
  };

  const implicitRole = (element: Element): string | null => {
    const tag = element.tagName;
    const type = (element.getAttribute('type') ?? '').toLowerCase();
    switch (tag) {
      case 'A':
      case 'AREA':
        return element.hasAttribute('href') ? 'link' : null;
      case 'BUTTON':
        return 'button';
      case 'INPUT':
        if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (type === 'range') return 'slider';
        if (type === 'number') return 'spinbutton';
        if (['', 'text', 'email', 'tel', 'url', 'search'].includes(type)) {
          if (element.hasAttribute('list')) return 'combobox';
          return type === 'search' ? 'searchbox' : 'textbox';
        }
        return null;
      case 'TEXTAREA':
        return 'textbox';
      case 'SELECT':
        return (element as HTMLSelectElement).multiple || (element as HTMLSelectElement).size > 1
          ? 'listbox'
          : 'combobox';
      case 'OPTION':
        return 'option';
      case 'H1':
      case 'H2':
      case 'H3':
      case 'H4':
      case 'H5':
      case 'H6':
        return 'heading';
      case 'DIALOG':
        return 'dialog';
      case 'NAV':
        return 'navigation';
      case 'MAIN':
        return 'main';
      case 'FIELDSET':
      case 'DETAILS':
        return 'group';
      case 'OUTPUT':
        return 'status';
      case 'IMG':
        return element.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'UL':
      case 'OL':
        return 'list';
      case 'LI':
        return 'listitem';
      case 'TABLE':
        return 'table';
      case 'TR':
        return 'row';
      case 'TD':
        return 'cell';
      case 'TH':
        return 'columnheader';
      case 'ARTICLE':
        return 'article';
      case 'ASIDE':
        return 'complementary';
      case 'PROGRESS':
        return 'progressbar';
      case 'FORM':
        return 'form';
      case 'SECTION':
        return element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby')
          ? 'region'
          : null;
      default:
        return null;
    }
  };

  const roleOf = (element: Element): string | null => {
    const explicit = (element.getAttribute('role') ?? '').trim().split(/\s+/)[0];
    return explicit || implicitRole(element);
  };

  const nameFromContent = new Set([
    'button',
    'link',
    'heading',
    'option',
    'cell',
    'columnheader',
    'rowheader',
    'tab',
    'menuitem',
    'menuitemradio',
    'menuitemcheckbox',
    'checkbox',
    'radio',
    'switch',
    'treeitem',
    'tooltip',
    'row',
  ]);

  const byId = (element: Element, id: string): Element | null =>
    (element.getRootNode() as Document | ShadowRoot).getElementById?.(id) ?? null;

  /** The accessible name, after the parts of accname the tests' pages use. */
  const accessibleName = (element: Element, visited = new Set<Element>()): string => {
    if (visited.has(element)) return '';
    visited.add(element);
    const labelledBy = (element.getAttribute('aria-labelledby') ?? '').trim();
    if (labelledBy) {
      const parts = labelledBy
        .split(/\s+/)
        .map((id) => byId(element, id))
        .filter((part): part is Element => !!part)
        .map((part) => textAlternative(part, visited));
      if (parts.some(Boolean)) return normalize(parts.join(' '));
    }
    const label = normalize(element.getAttribute('aria-label') ?? '');
    if (label) return label;
    const tag = element.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      const type = (element.getAttribute('type') ?? '').toLowerCase();
      if (tag === 'INPUT' && ['button', 'submit', 'reset'].includes(type)) {
        return normalize(
          (element as HTMLInputElement).value ||
            (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : ''),
        );
      }
      if (tag === 'INPUT' && type === 'image') return normalize(element.getAttribute('alt') ?? '');
      const labels = [...((element as HTMLInputElement).labels ?? [])];
      const fromLabels = normalize(labels.map((l) => textAlternative(l, visited, element)).join(' '));
      if (fromLabels) return fromLabels;
      return normalize(element.getAttribute('title') ?? element.getAttribute('placeholder') ?? '');
    }
    if (tag === 'IMG') return normalize(element.getAttribute('alt') ?? element.getAttribute('title') ?? '');
    if (tag === 'FIELDSET') {
      const legend = [...element.children].find((child) => child.tagName === 'LEGEND');
      if (legend) return normalize(textAlternative(legend, visited));
    }
    if (tag === 'TABLE') {
      const caption = (element as HTMLTableElement).caption;
      if (caption) return normalize(textAlternative(caption, visited));
    }
    const role = roleOf(element);
    if (role && nameFromContent.has(role)) {
      const text = normalize(textAlternative(element, visited, undefined, true));
      if (text) return text;
    }
    return normalize(element.getAttribute('title') ?? '');
  };

  /** Text of a subtree for a name: hidden parts left out, embedded names used, controls as their values. */
  const textAlternative = (
    root: Element,
    _visited: Set<Element>,
    skip?: Element,
    contentOnly = false,
  ): string => {
    let text = '';
    const walk = (node: Node, top: boolean) => {
      if (node.nodeType === Node.TEXT_NODE) {
        text += node.nodeValue ?? '';
        return;
      }
      if (!(node instanceof Element) || skipped.has(node.tagName) || node === skip) return;
      if (!top && hiddenForAria(node)) return;
      if (!top || !contentOnly) {
        const label = normalize(node.getAttribute('aria-label') ?? '');
        if (!top && label) {
          text += ` ${label} `;
          return;
        }
      }
      if (node.tagName === 'IMG') {
        text += ` ${node.getAttribute('alt') ?? ''} `;
        return;
      }
      if (!top && (node.tagName === 'INPUT' || node.tagName === 'TEXTAREA')) {
        text += ` ${(node as HTMLInputElement).value} `;
        return;
      }
      if (node.tagName === 'SELECT') {
        text += ` ${(node as HTMLSelectElement).selectedOptions[0]?.textContent ?? ''} `;
        return;
      }
      const block = !top && getComputedStyle(node).display !== 'inline';
      if (block) text += ' ';
      if (node instanceof HTMLSlotElement) {
        const assigned = node.assignedNodes({ flatten: true });
        for (const child of assigned.length ? assigned : [...node.childNodes]) walk(child, false);
      } else {
        const children = node.shadowRoot ? [...node.shadowRoot.childNodes] : [...node.childNodes];
        for (const child of children) walk(child, false);
      }
      if (block) text += ' ';
    };
    walk(root, true);
    return text;
  };

  const headingLevel = (element: Element): number => {
    const aria = Number(element.getAttribute('aria-level'));
    if (aria) return aria;
    const match = /^H(\d)$/.exec(element.tagName);
    return match ? Number(match[1]) : 0;
  };

  /** Labels of a form control or an element named by aria-label / aria-labelledby. */
  const labelTexts = (element: Element): string[] => {
    const texts: string[] = [];
    const aria = element.getAttribute('aria-label');
    if (aria) texts.push(aria);
    const labelledBy = (element.getAttribute('aria-labelledby') ?? '').trim();
    if (labelledBy) {
      texts.push(
        labelledBy
          .split(/\s+/)
          .map((id) => byId(element, id))
          .map((part) => (part ? elementText(part) : ''))
          .join(' '),
      );
    }
    const labels = (element as HTMLInputElement).labels;
    if (labels) for (const label of labels) texts.push(elementText(label));
    return texts;
  };

  /** Splits a selector into compound parts joined by descendant combinators (the only one supported). */
  const compounds = (selector: string): string[] => {
    const parts: string[] = [];
    let current = '';
    let depth = 0;
    let quote = '';
    for (const char of selector.trim()) {
      if (quote) {
        current += char;
        if (char === quote) quote = '';
        continue;
      }
      if (char === '"' || char === "'") quote = char;
      else if (char === '[' || char === '(') depth += 1;
      else if (char === ']' || char === ')') depth -= 1;
      else if (depth === 0 && /[>+~,]/.test(char)) {
        throw new Error(`the e2e driver supports descendant combinators only: ${selector}`);
      }
      if (depth === 0 && /\s/.test(char)) {
        if (current) parts.push(current);
        current = '';
      } else current += char;
    }
    if (current) parts.push(current);
    return parts;
  };

  const documentOrder = (elements: Element[], scope: Element | Document): Element[] => {
    const index = new Map<Element, number>();
    descendants(scope).forEach((element, i) => {
      index.set(element, i);
    });
    return [...new Set(elements)].sort((a, b) => (index.get(a) ?? 0) - (index.get(b) ?? 0));
  };

  const apply = (scopes: (Element | Document)[], steps: Step[]): Element[] => {
    let current: (Element | Document)[] = scopes;
    const top = scopes[0] ?? document;
    for (const step of steps) {
      let next: Element[] = [];
      const within = () => current.flatMap((scope) => descendants(scope));
      switch (step.kind) {
        case 'css': {
          let found: (Element | Document)[] = current;
          for (const part of compounds(step.selector)) {
            found = documentOrder(
              found.flatMap((scope) => descendants(scope).filter((element) => element.matches(part))),
              top,
            );
          }
          next = found as Element[];
          break;
        }
        case 'role':
          next = within().filter(
            (element) =>
              roleOf(element) === step.role &&
              !hiddenForAria(element) &&
              (step.level === undefined || headingLevel(element) === step.level) &&
              (step.name === undefined || matches(step.name, accessibleName(element))),
          );
          break;
        case 'text': {
          const candidates = within().filter((element) => !skipped.has(element.tagName));
          const hits = new Set(candidates.filter((element) => matches(step.text, elementText(element))));
          next = [...hits].filter((element) => !childElements(element).some((child) => hits.has(child)));
          break;
        }
        case 'label':
          next = within().filter((element) => labelTexts(element).some((text) => matches(step.text, text)));
          break;
        case 'hasText':
          next = (current as Element[]).filter((element) => matches(step.text, elementText(element)));
          break;
        case 'has':
          next = (current as Element[]).filter((element) => apply([element], step.steps).length > 0);
          break;
        case 'nth': {
          const list = current as Element[];
          const picked = step.index < 0 ? list[list.length + step.index] : list[step.index];
          next = picked ? [picked] : [];
          break;
        }
        case 'or':
          next = documentOrder(
            step.branches.flatMap((branch) => apply(current, branch)),
            top,
          );
          break;
      }
      current = documentOrder(next, top);
    }
    return current as Element[];
  };

  /**
   * The test's function, sent as source beside the request (driver/page.ts puts it in the expression itself:
   * a page's Content-Security-Policy may forbid compiling strings, as the sandbox's payment page does).
   */
  const compile = (_source: string): ((...args: unknown[]) => unknown) => {
    if (!fn) throw new Error('no function was sent with the request');
    return fn;
  };

  const center = (element: Element) => {
    const rect = element.getBoundingClientRect();
    return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2, rect };
  };

  /** The element under a point, through open shadow roots. */
  const deepElementFromPoint = (x: number, y: number): Element | null => {
    let root: Document | ShadowRoot = document;
    let hit: Element | null = null;
    for (;;) {
      const next: Element | null = root.elementFromPoint(x, y);
      if (!next || next === hit) return hit;
      hit = next;
      if (!next.shadowRoot) return hit;
      root = next.shadowRoot;
    }
  };

  const contains = (ancestor: Element, node: Element | null): boolean => {
    for (let current = node; current; current = parentOf(current)) if (current === ancestor) return true;
    return false;
  };

  /**
   * Where the click after a `point` went, as Playwright checks it: the first pointer or mouse event of the click
   * must reach the element (or what is inside it); when it reaches something else (the page moved between the
   * point and the click), it and the rest of that click are stopped before the page sees them, and `clickResult`
   * says so, for the driver to click again. Kept on the window between the two calls, under this key.
   */
  const guardKey = '__e2eClickGuard';
  interface ClickGuard {
    hit?: boolean;
    where?: string;
    disarm(): void;
  }
  const clickEvents = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick'];
  const armClick = (element: Element) => {
    const holder = window as unknown as Record<string, ClickGuard | undefined>;
    holder[guardKey]?.disarm();
    const guard: ClickGuard = {
      disarm: () => {
        for (const type of clickEvents) window.removeEventListener(type, listener, true);
        if (holder[guardKey] === guard) delete holder[guardKey];
      },
    };
    const listener = (event: Event) => {
      if (!event.isTrusted) return;
      if (guard.hit === undefined) {
        const target = event.composedPath()[0];
        guard.hit = target instanceof Element && contains(element, target);
        if (!guard.hit) guard.where = (target as Element | null)?.outerHTML?.slice(0, 120) ?? String(target);
      }
      if (guard.hit) {
        for (const type of clickEvents) window.removeEventListener(type, listener, true);
        return;
      }
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    for (const type of clickEvents) window.addEventListener(type, listener, true);
    holder[guardKey] = guard;
  };

  const fail = (message: string, retry = true): Outcome => ({ ok: false, retry, message });
  const done = (value: unknown): Outcome => ({ ok: true, value });

  const elementAction = async (element: Element, action: ElementAction, arg: unknown): Promise<Outcome> => {
    switch (action) {
      case 'textContent':
        return done(element.textContent);
      case 'inputValue':
        return done((element as HTMLInputElement).value);
      case 'isVisible':
        return done(isVisible(element));
      case 'isDisabled':
        return done(
          (element as HTMLButtonElement).disabled === true ||
            element.getAttribute('aria-disabled') === 'true',
        );
      case 'boundingBox': {
        if (!isVisible(element)) return done(null);
        const { rect } = center(element);
        return done({ x: rect.left, y: rect.top, width: rect.width, height: rect.height });
      }
      case 'evaluate':
        return done(await compile((arg as { fn: string }).fn)(element, (arg as { arg: unknown }).arg));
      case 'focus':
        // Whether it took: WebKit refuses a script's focus() in a cross-origin frame the user has not used yet.
        (element as HTMLElement).focus();
        return done((element.getRootNode() as Document | ShadowRoot).activeElement === element);
      case 'point': {
        // Actionable as Playwright means it: visible, enabled, not moving, and the one that gets the click.
        if (!isVisible(element)) return fail('not visible');
        if ((element as HTMLButtonElement).disabled) return fail('disabled');
        element.scrollIntoView({ block: 'center', inline: 'center' });
        const before = center(element);
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        const after = center(element);
        if (Math.abs(before.x - after.x) > 0.5 || Math.abs(before.y - after.y) > 0.5) return fail('moving');
        const hit = deepElementFromPoint(after.x, after.y);
        if (!contains(element, hit)) {
          return fail(`another element would receive the click: ${hit?.outerHTML.slice(0, 120) ?? 'none'}`);
        }
        armClick(element);
        return done({ x: after.x, y: after.y });
      }
      case 'fill': {
        const value = String(arg);
        const input = element as HTMLInputElement;
        if (!isVisible(element)) return fail('not visible');
        if (input.disabled || input.readOnly) return fail('not editable');
        const type = (input.getAttribute('type') ?? '').toLowerCase();
        // As Playwright does: these are set, not typed (their typing differs by engine and locale).
        if (['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'].includes(type)) {
          input.focus();
          input.value = type === 'color' ? value.toLowerCase() : value;
          if (input.value !== (type === 'color' ? value.toLowerCase() : value)) {
            return fail(`"${value}" is not a valid ${type} value`, false);
          }
          input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
          input.dispatchEvent(new Event('change', { bubbles: true }));
          return done(true);
        }
        input.focus();
        if (typeof input.select === 'function') input.select();
        // The browser's own editing command: trusted input events, as typing or pasting makes.
        const edited = value
          ? document.execCommand('insertText', false, value)
          : document.execCommand('delete');
        if (!edited || input.value !== value) {
          input.value = value;
          input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, data: value }));
        }
        input.dispatchEvent(new Event('change', { bubbles: true }));
        return done(true);
      }
      case 'selectOption': {
        const select = element as HTMLSelectElement;
        const wanted = arg as { value?: string; label?: string };
        const option = [...select.options].find((o) =>
          wanted.label !== undefined
            ? normalize(o.label) === normalize(wanted.label)
            : o.value === wanted.value,
        );
        if (!option) return fail(`no option ${JSON.stringify(wanted)}`);
        select.value = option.value;
        select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        select.dispatchEvent(new Event('change', { bubbles: true }));
        return done([option.value]);
      }
    }
  };

  const main = async (): Promise<Outcome> => {
    // Between two documents of a navigation: ask again once the next one is there.
    if (!document.documentElement) return fail('the document is loading');
    switch (request.op) {
      case 'clickResult': {
        const guard = (window as unknown as Record<string, ClickGuard | undefined>)[guardKey];
        guard?.disarm();
        return done(guard ? { hit: guard.hit, where: guard.where } : null);
      }
      case 'count':
        return done(apply([document], request.steps).length);
      case 'state': {
        const found = apply([document], request.steps);
        return done({ count: found.length, visible: found[0] ? isVisible(found[0]) : false });
      }
      case 'resolve': {
        const [first] = apply([document], request.steps);
        return first ? done(first) : fail('no such element');
      }
      case 'frameOffset': {
        const [frame] = apply([document], request.steps);
        if (!frame) return fail('no such frame');
        const rect = frame.getBoundingClientRect();
        const style = getComputedStyle(frame);
        return done({
          x: rect.left + frame.clientLeft + Number.parseFloat(style.paddingLeft),
          y: rect.top + frame.clientTop + Number.parseFloat(style.paddingTop),
        });
      }
      case 'element': {
        const found = apply([document], request.steps);
        if (found.length === 0) return fail('no element matches');
        if (request.strict && found.length > 1) {
          return fail(
            `strict mode: ${found.length} elements match (${found
              .slice(0, 3)
              .map((e) => e.outerHTML.slice(0, 80))
              .join(' | ')})`,
            false,
          );
        }
        return elementAction(found[0] as Element, request.action, request.arg);
      }
      case 'all':
        return done(await compile(request.fn)(apply([document], request.steps), request.arg));
      case 'page':
        return done(await compile(request.fn)(request.arg));
    }
  };

  return main().catch((error: unknown) =>
    fail(error instanceof Error ? error.message : String(error), false),
  );
}

// `cem analyze --config custom-elements-manifest.config.mjs` (run by scripts/build.mjs): custom-elements.json
// from the element's JSDoc (@summary, @fires, @csspart, @cssprop, @slot) and its Lit properties.

/**
 * Two misreadings of the analyzer, corrected:
 * - it reads `static properties = { _x: { state: true } }` as attributes; Lit gives internal state no
 *   attribute. Drops attributes of private, protected or `_`-named fields, and those fields from the members;
 * - from `dispatchEvent(new CheckoutQuoteEvent(q))` it takes `q` for an event name. Drops events that only
 *   repeat the type of one documented with `@fires`.
 */
function publicApiOnly() {
  const internal = (member) =>
    member.name.startsWith('_') || member.privacy === 'private' || member.privacy === 'protected';
  return {
    name: 'internal-state-is-not-api',
    packageLinkPhase({ customElementsManifest }) {
      // The analyzer lists modules in file-system order; sorted, the committed manifest only changes with the API.
      customElementsManifest.modules?.sort((a, b) => a.path.localeCompare(b.path));
      for (const module of customElementsManifest.modules ?? []) {
        for (const declaration of module.declarations ?? []) {
          if (!declaration.customElement) continue;
          const hidden = new Set((declaration.members ?? []).filter(internal).map((member) => member.name));
          declaration.attributes = (declaration.attributes ?? []).filter(
            (attribute) => !attribute.name.startsWith('_') && !hidden.has(attribute.fieldName),
          );
          declaration.members = (declaration.members ?? []).filter((member) => !internal(member));
          const documented = new Set(
            (declaration.events ?? []).filter((event) => event.description).map((event) => event.type?.text),
          );
          declaration.events = (declaration.events ?? []).filter(
            (event) => event.description || !documented.has(event.type?.text),
          );
        }
      }
    },
  };
}

export default {
  globs: ['src/**/*.ts'],
  // The React wrapper is not an element; the tests are not the package.
  exclude: ['src/react.ts', 'src/**/*.test.ts'],
  outdir: '.',
  litelement: true,
  dependencies: false,
  packagejson: true,
  plugins: [publicApiOnly()],
};

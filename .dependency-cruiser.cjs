/**
 * The backend's floors, enforced by `npm run lint` (and so CI): a room imports only rooms on its own floor or
 * below. CONTRIBUTING.md "Floors" shows the same table. A room new to the backend must be placed on a floor here,
 * or the lint says it is on none.
 *
 * `known` lists the back-imports that stood when the floors were drawn, in rooms other open work is changing
 * (orders/, events/, admin/ and the deposits' secrets); each is to be cut there, and none may be added.
 */
const src = '^packages/backend/src/';

/** From the ground up: [name, the rooms on it (a regular expression below src/)]. */
const floors = [
  [
    'foundations',
    '(clock|errors|logger|money|keyed-lock|origins|precompressed|trusted-proxies|outage-log|lifecycle)\\.ts$|schemas/|secrets/keyring\\.ts$',
  ],
  ['storage, Redis, upstream', '(store|shared|upstream)/'],
  ['domain', '(orders|quotes|events|deposits|catalog|csp|refunds)/|(products|tokens)\\.ts$'],
  ['operating rooms', '(checks|metrics|admin|config)/|secrets/(?!keyring\\.ts$)|config\\.ts$'],
  ['HTTP', '(middleware|routes)/|(app|deps|openapi)\\.ts$'],
  ['process', '(process|workers)/|(cli|index)\\.ts$'],
];

/** Back-imports that stood when the floors were drawn: `from` file → `to` file, below src/. */
const known = [
  ['store/indexes.ts', 'orders/status.ts'],
  ['orders/create.ts', 'secrets/previous-use.ts'],
  ['orders/create.ts', 'metrics/metrics.ts'],
  ['orders/ledger.ts', 'metrics/metrics.ts'],
  ['orders/return-page.ts', 'middleware/security.ts'],
  ['events/delivery-worker.ts', 'middleware/access-log.ts'],
  ['deposits/addresses.ts', 'secrets/previous-use.ts'],
  ['deposits/addresses.ts', 'metrics/metrics.ts'],
  ['admin/access.ts', 'middleware/client-address.ts'],
  ['admin/access.ts', 'deps.ts'],
  ['admin/audit.ts', 'deps.ts'],
  ['admin/lockouts.ts', 'deps.ts'],
  ['admin/lockouts.ts', 'middleware/rate-limit.ts'],
];

const literally = (path) => path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const file = (path) => `${src}${literally(path)}$`;
const forbidden = [];
floors.slice(0, -1).forEach(([name, rooms], index) => {
  const rule = {
    name: `floor-${index + 1}`,
    severity: 'error',
    comment: `The ${name} floor imports nothing from a floor above it (CONTRIBUTING.md, Floors).`,
    from: { path: `${src}(${rooms})` },
    to: {
      path: `${src}(${floors
        .slice(index + 1)
        .map(([, above]) => above)
        .join('|')})`,
    },
  };
  const onFloor = known.filter(([from]) => new RegExp(rule.from.path).test(`packages/backend/src/${from}`));
  const sources = [...new Set(onFloor.map(([from]) => from))];
  if (sources.length) rule.from.pathNot = sources.map(file);
  forbidden.push(rule);
  // A file with a known back-import keeps that one, and may add no other.
  for (const from of sources) {
    const targets = onFloor.filter(([source]) => source === from).map(([, to]) => file(to));
    forbidden.push({
      ...rule,
      name: `${rule.name}-known`,
      from: { path: file(from) },
      to: { ...rule.to, pathNot: targets },
    });
  }
});

module.exports = {
  forbidden: [
    ...forbidden,
    {
      name: 'on-a-floor',
      severity: 'error',
      comment:
        'Every backend source file stands on a floor (a room new to the backend gets a line in floors).',
      from: {
        path: `${src}`,
        pathNot: `${src}(${floors.map(([, rooms]) => rooms).join('|')})`,
      },
      to: {},
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules|/dist/' },
  },
};

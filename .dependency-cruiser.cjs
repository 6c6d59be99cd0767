// The import rules of src/, checked by `npm run lint:imports` and by `npm test`
// (test/unit/architecture/import-rules.spec.ts). A rule's comment is what a developer reads when it fails.

/**
 * The floors of the house, from the ground up. A file may import from its own floor and the floors below it, never
 * from a floor above: what a lower floor needs from a higher one it declares itself (an interface, a token, a plain
 * rule) and the higher floor provides. To move a capability, move its name here; the rules below follow.
 */
const FLOORS = [
  ['ground', ['src/config', 'src/database']],
  // identifiers stands on common: its require* functions answer the spec's errors (common/errors).
  ['common', ['src/common', 'src/identifiers', 'src/metrics']],
  [
    'platform',
    ['src/claims', 'src/coordination', 'src/events', 'src/idempotency', 'src/partners', 'src/guards', 'src/oauth', 'src/console'],
  ],
  [
    'records',
    ['src/inventory', 'src/locations', 'src/skus', 'src/supply-catalog', 'src/sales', 'src/forecasting', 'src/price-audit'],
  ],
  [
    'operations',
    [
      'src/approvals', 'src/checkout', 'src/restock', 'src/pricing', 'src/sync',
      'src/catalog', 'src/replenishment', 'src/purchases', 'src/orders', 'src/visits',
    ],
  ],
  [
    'edge',
    [
      'src/mcp', 'src/admin', 'src/discovery', 'src/health', 'src/staging', 'src/fleet', 'src/sales-summary', 'src/spending',
      'src/*.ts', // the top files: main, bootstrap, app.module, entities, openapi, data-source, mcp-stdio
    ],
  ],
];

const escape = (s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
/** 'src/x' is the folder src/x/; 'src/*.ts' is a file directly in src/. */
const pattern = (place) => (place === 'src/*.ts' ? '^src/[^/]+\\.ts$' : `^${escape(place)}/`);

const floorRules = FLOORS.slice(0, -1).map(([name, places], i) => {
  const above = FLOORS.slice(i + 1);
  return {
    name: `floors-order:${name}`,
    severity: 'error',
    comment:
      `Floor ${i + 1} '${name}' (${places.join(', ')}) must not import from the floors above it ` +
      `(${above.map(([n]) => n).join(', ')}). Move what both need down to this floor or lower, or let this floor ` +
      `declare what it needs (an interface or an injection token) and have the higher floor provide it. ` +
      `If the capability really belongs higher, move it in FLOORS in .dependency-cruiser.cjs.`,
    from: { path: places.map(pattern) },
    to: { path: above.flatMap(([, p]) => p).map(pattern) },
  };
});

const GENERATED =
  'Generated code lives in the top-level generated/ folder, never under src/, and only src/openapi.ts loads it. ' +
  'Write the generator\'s output to generated/ and reach it through src/openapi.ts.';

/** Where the edge (views, responses, controllers, dto: anything under an api/ folder) may be used from. */
const EDGE_USERS = ['/api/', '\\.module\\.ts$', '^src/mcp/', '^src/[^/]+\\.ts$'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'These files import each other in a circle. Break it: move what both need into a third file that both import, ' +
        'or let the lower one declare an interface that the higher one implements and provides.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...floorRules,
    {
      name: 'views-at-edge',
      severity: 'error',
      comment:
        'Views (*.view.ts) and everything under an api/ folder (controllers, dto, responses, openapi) belong to the edge. ' +
        'Services, repositories, rules and entities return plain records; the edge renders them. Move the rendering ' +
        'into the api/ folder (or the module), or move the plain type you need out of api/ next to the service.',
      from: { path: '^src/', pathNot: EDGE_USERS },
      to: { path: ['\\.view\\.ts$', '/api/'] },
    },
    {
      name: 'fulfiller-kind-in-fulfillers',
      severity: 'error',
      comment:
        'The fulfiller kind is the fulfillers\' own business. Outside src/replenishment/fulfillers/ and the replenishment ' +
        'edge (src/replenishment/api/), ask a fulfiller for the trait you need (its RunFulfiller member) instead of ' +
        'branching on its kind.',
      from: { pathNot: ['^src/replenishment/fulfillers/', '^src/replenishment/api/', '^src/replenishment/fulfiller-kind\\.ts$'] },
      to: { path: '^src/replenishment/fulfiller-kind\\.ts$' },
    },
    {
      name: 'generated-outside-src',
      severity: 'error',
      comment: GENERATED,
      from: { pathNot: '^src/openapi\\.ts$' },
      to: { path: '(^|/)generated/' },
    },
    {
      name: 'generated-outside-src',
      severity: 'error',
      comment: GENERATED,
      from: { path: '^src/.*generated/' },
      to: {},
    },
    {
      name: 'generated-outside-src',
      severity: 'error',
      comment: GENERATED,
      from: { path: '^src/.*generated/', orphan: true },
      to: {},
    },
  ],
  options: {
    // src/ and the generated code it loads; packages are not followed.
    includeOnly: ['^src/', '^generated/'],
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: an interface is a dependency like any other for the floors.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};

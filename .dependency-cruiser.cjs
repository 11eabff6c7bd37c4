// The import graph's rules, checked by `npm run lint` (ARCHITECTURE.md "Layers"). ESLint's
// import-x/no-cycle skips type-only imports by construction, so the cycles and the one-way layers
// are checked here, on the graph TypeScript itself would see: `import type`, re-exports and lazy
// `import()` are edges like any other. The service's own layers and through-index rules stay in
// eslint.config.js.

// The workspace packages from the bottom up: each may import only those listed before it (and
// lists only those in its package.json; scripts/test/import-graph.test.ts checks both).
const PACKAGE_LAYERS = ['form', 'answer-view', 'api-contract'];

const packageLayerRules = PACKAGE_LAYERS.slice(0, -1).map((name, index) => ({
  name: `package-layers-${name}`,
  severity: 'error',
  comment: `@admissions/${name} sits below ${PACKAGE_LAYERS.slice(index + 1).join(', ')}: it may not import them (.dependency-cruiser.cjs PACKAGE_LAYERS).`,
  from: { path: `^packages/${name}/` },
  to: { path: `^packages/(${PACKAGE_LAYERS.slice(index + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment:
        'An import cycle (type-only and lazy imports count): move what both sides need into a third file, or below both.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment:
        'A cycle between folders (service modules, SPA features, packages): one of them must stop knowing the other.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'spa-shared-knows-no-feature',
      severity: 'error',
      comment:
        'apps/web: shared/ and config/ are below features/ and app/ and never import them (bulletproof-react).',
      from: { path: '^apps/web/src/(shared|config)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
    {
      name: 'spa-features-below-app',
      severity: 'error',
      comment: 'apps/web: features/ never import app/; app/ composes the features.',
      from: { path: '^apps/web/src/features/' },
      to: { path: '^apps/web/src/app/' },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      comment: 'packages/ are shared by the service and the SPA, and never import either.',
      from: { path: '^packages/' },
      to: { path: '^(services|apps)/' },
    },
    ...packageLayerRules,
  ],
  options: {
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|data|coverage)/' },
    // The workspace packages resolve through their node_modules links to their real folders.
    preserveSymlinks: false,
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};

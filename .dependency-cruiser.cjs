// Import rules of this repository (docs/architecture.md). Checked by scripts/check-imports.mjs in scripts/test.sh.
/** @type {import('dependency-cruiser').IConfiguration} */
const IO = '^(api|ingest|activities|clickhouse|tracking|devnet)/';
const TEST_ONLY = '^(test|bench|devnet)/';
module.exports = {
  forbidden: [
    {
      name: 'pure-imports-no-io',
      comment: 'routing/, workflows/, chain/ and platform/ are pure: they import no I/O layer.',
      severity: 'error',
      from: { path: '^(routing|workflows|chain|platform)/' },
      to: { path: IO },
    },
    {
      name: 'api-no-ingest-activities-devnet',
      comment:
        'api/ serves HTTP over clickhouse/, routing/ and the tracking service interface; it imports no ingest/, activities/ or devnet/.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^(ingest|activities|devnet)/' },
    },
    {
      name: 'handlers-read-through-the-model',
      comment:
        'Indexer handlers (api/indexer/*.ts) read indexed data only through the read model (api/indexer/read/): ' +
        'from clickhouse/ they import types, never a statement or the store.',
      severity: 'error',
      from: { path: '^api/indexer/[^/]+[.]ts$' },
      to: { path: '^clickhouse/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'read-model-no-handlers',
      comment:
        'The read model (api/indexer/read/) knows no handler module; it may use the pure request parsers (params.ts).',
      severity: 'error',
      from: { path: '^api/indexer/read/' },
      to: { path: '^api/indexer/[^/]+[.]ts$', pathNot: '^api/indexer/params[.]ts$' },
    },
    {
      name: 'production-no-test-code',
      comment: 'Production code imports neither devnet/ nor test/ (nor bench/).',
      severity: 'error',
      from: { path: '^(api|ingest|clickhouse|routing|workflows|activities|tracking|platform|chain|scripts)/' },
      to: { path: TEST_ONLY, pathNot: '^devnet/sample-chains/serve[.]ts$' },
    },
    {
      name: 'sample-chain-only-on-demand',
      comment:
        'The one exception: scripts/main.ts loads the recorded sample chain (devnet/sample-chains/serve.ts) on demand, ' +
        'with a dynamic import, only when no chain is configured (SAMPLE_CHAIN).',
      severity: 'error',
      from: { path: '^(api|ingest|clickhouse|routing|workflows|activities|tracking|platform|chain|scripts)/' },
      to: { path: '^devnet/sample-chains/serve[.]ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'sample-chain-only-from-main',
      comment: 'Only scripts/main.ts may load the sample chain in production code.',
      severity: 'error',
      from: {
        path: '^(api|ingest|clickhouse|routing|workflows|activities|tracking|platform|chain|scripts)/',
        pathNot: '^scripts/main[.]ts$',
      },
      to: { path: '^devnet/sample-chains/serve[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};

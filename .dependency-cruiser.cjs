/**
 * The layers, checked by `npm run lint:layers`: app/ -> lib/ -> db/, one way.
 * - db/ is the bottom: it imports neither lib/, app/ nor components/.
 * - lib/ imports db/, never app/ or components/; app/ reaches db/ only through lib/ (types excepted).
 * - lib/memory/ by flow: context/ (the turn's context), jobs/ (the post-turn queue) and corrections/
 *   stand apart above edits/ (the edit core both jobs and corrections use); corrections/ queue work
 *   through jobs/queue.ts alone.
 * - components/ (client code) see lib/ and db/ through their types only (`import type`), except
 *   lib/shared/: small pure modules (no db/, no server state) that the browser and the server both run.
 * - no import circles anywhere.
 */
module.exports = {
  forbidden: [
    {
      name: 'db-is-the-bottom',
      comment: 'db/ takes what it needs as arguments (or from db/settings.ts); it never reaches up.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: '^(lib|app|components)/' },
    },
    {
      name: 'lib-not-up',
      comment: 'lib/ serves app/; it never imports a route, a page or a component.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(app|components)/' },
    },
    {
      name: 'components-types-only',
      comment: 'Components run in the browser: lib/ and db/ reach them as types (`import type`), data through the API or a page.',
      severity: 'error',
      from: { path: '^components/' },
      to: { path: '^(lib|db)/', pathNot: '^lib/shared/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'shared-is-pure',
      comment: 'lib/shared/ runs in the browser too: it imports nothing of ours outside itself.',
      severity: 'error',
      from: { path: '^lib/shared/' },
      to: { path: '^(lib|db|app|components)/', pathNot: '^lib/shared/' },
    },
    {
      name: 'rules-in-their-threads',
      comment:
        'The text rules read what users write and run off the event loop: the app calls them through lib/memory/rules/bounded.ts (worker threads, a time budget per text); their types and fact-types.ts data may be imported.',
      severity: 'error',
      from: { path: '^(lib|app|db|scripts)/', pathNot: '^lib/memory/rules/' },
      to: { path: '^lib/memory/rules/', pathNot: '^lib/memory/rules/(bounded|fact-types)\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'app-through-lib',
      comment:
        'A route, page, the proxy and instrumentation reach the database through lib/ (one way to reach data); db/ types may be imported.',
      severity: 'error',
      from: { path: '^(app/|proxy\\.ts$|instrumentation\\.ts$)' },
      to: { path: '^db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'context-apart',
      comment: "The turn's context pipeline (lib/memory/context/) reads memory; it neither queues jobs nor edits memory.",
      severity: 'error',
      from: { path: '^lib/memory/context/' },
      to: { path: '^lib/memory/(jobs|corrections|edits)/' },
    },
    {
      name: 'jobs-not-corrections',
      comment: 'The post-turn jobs (lib/memory/jobs/) share with corrections only the edit core below both (lib/memory/edits/).',
      severity: 'error',
      from: { path: '^lib/memory/jobs/' },
      to: { path: '^lib/memory/corrections/' },
    },
    {
      name: 'corrections-only-the-queue',
      comment:
        'A correction schedules re-derivation on the queue (jobs/queue.ts, which runs every job kind: no way round it without changing how jobs run); it imports nothing else of jobs/.',
      severity: 'error',
      from: { path: '^lib/memory/corrections/' },
      to: { path: '^lib/memory/jobs/', pathNot: '^lib/memory/jobs/queue\\.ts$' },
    },
    {
      name: 'edits-below',
      comment:
        'The edit core (ending facts, redaction plans, undo capture, queuing re-derivation as rows) sits below jobs/ and corrections/: it imports neither, nor context/.',
      severity: 'error',
      from: { path: '^lib/memory/edits/' },
      to: { path: '^lib/memory/(jobs|corrections|context)/' },
    },
    {
      name: 'no-circular',
      comment: 'An import circle: neither side can be read, tested or moved alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|\\.next|\\.data|drizzle)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};

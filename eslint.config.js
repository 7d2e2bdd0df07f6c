// ESLint runs for one thing only: regular expressions that can backtrack catastrophically.
// Biome lints and formats everything else. Every regex literal and `new RegExp` with a constant
// pattern in the project is checked; a pattern built at run time must come from escaped words
// (lib/text/escape.ts) or run on the linear-time engine.
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['.next/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.data/**', 'next-env.d.ts'] },
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignorePartial: false, ignoreSticky: false }],
      'regexp/no-misleading-capturing-group': 'error',
    },
  },
];

// ESLint runs for one thing only: regular expressions that can backtrack catastrophically (issue 31): two
// quantifiers that can take the same characters, a quantifier a failing search restarts at each position of
// a run, a group that gives characters up to what follows. Biome lints everything else. A `new RegExp` built
// from another file's constants is not seen here; tests/unit/memory/rules/rules-adversarial.test.ts feeds the rules such texts.
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

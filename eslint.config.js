// The project's lint: a base config other rule sets extend. It covers every TypeScript file of the repository and
// today enforces regular-expression safety: no pattern may backtrack super-linearly on any input (issue 18: parsers
// of request data, packs, keys files, OSM tags and style JSON run in linear time).
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['dist/**', 'node_modules/**', 'wasm/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts', 'data-tools/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts', '*.ts', 'examples/**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp },
    rules: {
      // Exponential or polynomial backtracking within one match attempt (the ReDoS of issue 18).
      'regexp/no-super-linear-backtracking': 'error',
      // Quadratic time from retrying an unanchored pattern at every start position.
      'regexp/no-super-linear-move': 'error',
      // A quantifier that gives up characters the next one then takes: a sign of overlap, and of wrong captures.
      'regexp/no-misleading-capturing-group': 'error',
      'regexp/no-invalid-regexp': 'error',
      'regexp/no-empty-alternative': 'error',
      'regexp/no-dupe-disjunctions': 'error',
    },
  },
];

// make test runs `eslint .` and `prettier --check` (tools/scripts/lint.sh). Prettier owns
// the layout; ESLint the mistakes, plus the 120-column limit for code (messages in
// strings and templates may run longer: breaking them makes them harder to grep).
import js from '@eslint/js';
import globals from 'globals';

export default [
  // tools/src/validators: ajv's generated code (tools/scripts/build-validators.js).
  { ignores: ['node_modules/**', '.tools/**', 'results/**', 'tools/test/fixtures/**', 'tools/src/validators/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // k6 runs these in its own JavaScript runtime, not Node.
    files: ['k6/**/*.js'],
    languageOptions: {
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly', console: 'readonly' },
    },
  },
];

import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noProcessEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message:
    'Read configuration through server/src/config.ts, the only module that reads process.env.',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.typescript,
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'import-x/no-cycle': 'error',
      'no-restricted-syntax': ['error', noProcessEnv],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The contract's index carries zod: the web takes types from it and values from the
      // zod-free '@upshot/contract/constants', so the schema library stays out of the bundle.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@upshot/contract',
              allowTypeImports: true,
              message: "Import values from '@upshot/contract/constants'; only types from here.",
            },
            { name: 'zod', message: 'The web app does not bundle zod.' },
          ],
          patterns: [{ group: ['zod/*'], message: 'The web app does not bundle zod.' }],
        },
      ],
    },
  },
  {
    // An API path is written once, in the contract's route table: the app calls endpoints by
    // name (api.call('listUploads')). Tests and their fetch fakes may spell paths out.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}', 'web/src/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        noProcessEnv,
        {
          selector: 'Literal[value=/^\\/api(\\/|$)/]',
          message: 'Call the endpoint by its name in ROUTES (api.call), not by its path.',
        },
        {
          selector: 'TemplateElement[value.raw=/^\\/api(\\/|$)/]',
          message: 'Call the endpoint by its name in ROUTES (api.call), not by its path.',
        },
      ],
    },
  },
  {
    // Where the environment legitimately comes in: the server's config, and the harnesses
    // that start processes with an environment of their own (tests, e2e, benchmarks, scripts).
    files: [
      'server/src/config.ts',
      'server/test/**',
      '**/vitest.config.ts',
      '**/vite.config.ts',
      'e2e/**',
      'bench/**',
      'scripts/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
);

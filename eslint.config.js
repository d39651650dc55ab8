import fs from 'node:fs';
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

// The server's layers, as docs/ARCHITECTURE.md's "May import" column states them.
const modules = fs
  .readdirSync(new URL('./server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const layerZones = [
  // One domain reaches another only through its index.ts.
  ...modules.flatMap((a) =>
    modules
      .filter((b) => b !== a)
      .map((b) => ({
        target: `./server/src/modules/${a}`,
        from: `./server/src/modules/${b}`,
        except: ['./index.ts'],
        message: `Use what modules/${b}/index.ts exports.`,
      })),
  ),
  // Routes and services never touch the database layer (table types aside): repositories do.
  ...['routes', 'service', 'policy', 'presenter'].map((role) => ({
    target: `./server/src/modules/*/${role}.ts`,
    from: './server/src/db',
    except: ['./schema.ts'],
    message: 'SQL lives in repositories; only the table types (db/schema.ts) may be imported here.',
  })),
  // Nothing below the app reaches up into it.
  {
    target: ['./server/src/modules', './server/src/lib', './server/src/storage', './server/src/db'],
    from: ['./server/src/app.ts', './server/src/boot.ts', './server/src/main.ts'],
    message: 'Modules are given what they need; they do not import the app.',
  },
  {
    target: [
      './server/src/lib',
      './server/src/storage',
      './server/src/db/database.ts',
      './server/src/plugins',
      './server/src/jobs',
    ],
    from: './server/src/modules',
    message:
      'lib, storage, db, plugins and jobs know nothing of the domains (shared types live in leaf files such as lib/caller.ts).',
  },
];

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
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/**/*.test.ts'], // tests may reach into any layer
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones }] },
  },
  {
    // Services hold the rules and know nothing of HTTP.
    files: ['server/src/modules/*/service.ts', 'server/src/modules/*/policy.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['fastify', '@fastify/*'], message: 'Services never import Fastify.' },
            { group: ['**/plugins/**'], message: 'Services never import HTTP plugins.' },
          ],
        },
      ],
    },
  },
  {
    // A promise nobody awaits hides its failure: await it, return it, or `void` it on purpose.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
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

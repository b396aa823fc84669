// Lint rules of the workspace: typescript-eslint's recommended set, Prettier for layout, and the module
// boundaries: over the Nx project tags (apps depend on libs only; libs never on apps), and inside
// libs/shared (capability folders meet only through their index.ts; db/ knows no capability).
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import { globSync, readFileSync } from 'node:fs';

const readJson = (file) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8'));

/** The Nx projects (name and tags), read from their project.json files: a new library needs no line here. */
const projects = globSync(['apps/*/project.json', 'libs/*/project.json', 'libs/shared/*/project.json'], {
  cwd: import.meta.dirname,
}).map((file) => readJson(`./${file}`));

/** The apps the test harness starts, by their tsconfig.base.json names (`@wms/gateway`…). */
const APP_MODULES = Object.entries(readJson('./tsconfig.base.json').compilerOptions.paths)
  .filter(([, [target]]) => target.startsWith('./apps/'))
  .map(([name]) => name);

/** Another folder of libs/shared is entered through its index.ts only. */
const CAPABILITY_INDEX_ONLY = {
  group: ['../*/*', '!../*/index.js', '../../*/*', '!../../*/index.js'],
  message: "Import another folder of libs/shared through its index.ts ('../<folder>/index.js').",
};

/** Redis connections come from createRedis, which knows the shape (one node, Sentinel, cluster). */
const CONNECT_THROUGH_FACTORY = {
  selector: 'NewExpression[callee.name=/^(Redis|Cluster|IORedis)$/]',
  message:
    "Connect with createRedis(config, role, name) from '@wms/platform': it knows the Redis shape (one node, Sentinel or cluster).",
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'coverage/**', 'bench-results/**', '.nx/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.cjs', '**/*.js'],
    plugins: { '@nx': nx },
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        queueMicrotask: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      // A process handle assigned once at start and read by the shutdown hook installed before it.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            // Layers: platform knows no capability; capabilities stand on the platform; setup composes them.
            { sourceTag: 'layer:platform', onlyDependOnLibsWithTags: ['layer:platform'] },
            { sourceTag: 'layer:domain', onlyDependOnLibsWithTags: ['layer:platform', 'layer:domain'] },
            // Ingest (the integration API's machinery) stands on the warehouse; no capability depends on it.
            { sourceTag: 'layer:ingest', onlyDependOnLibsWithTags: ['layer:platform', 'layer:domain'] },
            // EDI (X12 trading partners) stands on the warehouse, the ingest machinery and the webhooks' delivery.
            { sourceTag: 'layer:edi', onlyDependOnLibsWithTags: ['layer:platform', 'layer:domain', 'layer:ingest'] },
            {
              sourceTag: 'layer:setup',
              onlyDependOnLibsWithTags: ['layer:platform', 'layer:domain', 'layer:ingest', 'layer:edi'],
            },
          ],
        },
      ],
    },
  },
  {
    // Request schemas use the service's joi (libs/shared/platform/src/validation/joi.ts), whose strings refuse text
    // PostgreSQL cannot store and whose objects refuse prototype keys; joi's own types may still be imported.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts', 'libs/shared/platform/src/validation/joi.ts', 'libs/shared/platform/src/config/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'joi',
              message:
                "Build schemas with the Joi exported by the shared validation (import { Joi } from '@wms/platform').",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Specs may use the test harness; the harness itself starts the apps it tests.
    files: ['**/*.spec.ts', 'libs/testing/**/*.ts', 'libs/testing/**/*.mjs'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          allow: APP_MODULES,
          // An app's specs use the harness, which starts that app: a loop of test code only.
          ignoredCircularDependencies: projects
            .filter((project) => project.tags.includes('type:app') || project.tags.includes('type:lib'))
            .map((project) => [project.name, 'testing']),
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:test-util'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:test-util'] },
            { sourceTag: 'type:test-util', onlyDependOnLibsWithTags: ['type:lib', 'type:app'] },
          ],
        },
      ],
    },
  },
  {
    // One factory makes every Redis connection, so every user of Redis follows the configured shape.
    files: ['libs/**/*.ts'],
    ignores: ['libs/shared/platform/src/redis/**'],
    rules: { 'no-restricted-syntax': ['error', CONNECT_THROUGH_FACTORY] },
  },
  {
    // Apps stay thin: they open a transaction with the lib's unitOfWork and never reach into Sequelize.
    files: ['apps/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'sequelize', message: "Apps use the lib's unitOfWork and services, not Sequelize." }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][callee.object.property.name='sequelize']",
          message: "Open a transaction with unitOfWork(runtime.db, ...) from '@wms/platform'.",
        },
        CONNECT_THROUGH_FACTORY,
      ],
    },
  },
  {
    // A capability folder's index.ts is its public face: another folder imports that and nothing deeper,
    // so a folder can rearrange its files without breaking its neighbours.
    files: ['libs/shared/*/src/*/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [CAPABILITY_INDEX_ONLY] }],
    },
  },
  {
    // The lib's own root files (index.ts, services.ts) also enter a folder through its index.ts.
    files: ['libs/shared/*/src/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['./*/*', '!./*/index.js'],
              message: "Import a folder of libs/shared through its index.ts ('./<folder>/index.js').",
            },
          ],
        },
      ],
    },
  },
  {
    // db/ is the floor the capabilities stand on (connection, migrations, the model registry): it may
    // read the config, log and read the request's context (its deadline bounds every statement), and imports
    // no capability, so no capability can loop back through it.
    files: ['libs/shared/platform/src/db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            CAPABILITY_INDEX_ONLY,
            {
              group: [
                '../*',
                '../../*',
                '!../config',
                '!../config/index.js',
                '!../logging',
                '!../logging/index.js',
                '!../context',
                '!../context/index.js',
              ],
              message: 'db/ imports no capability: a capability registers its own models and its own seed rows.',
            },
          ],
        },
      ],
    },
  },
  {
    // Inside db/migrations the parent is db/ itself.
    files: ['libs/shared/platform/src/db/migrations/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '../../*',
                '!../../config',
                '!../../config/index.js',
                '!../../logging',
                '!../../logging/index.js',
              ],
              message: 'db/ imports no capability: a capability registers its own models and its own seed rows.',
            },
          ],
        },
      ],
    },
  },
  {
    // The admin portal runs in the browser.
    files: ['apps/admin-portal/src/**/*.{ts,tsx}'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        localStorage: 'readonly',
        sessionStorage: 'readonly',
        atob: 'readonly',
        btoa: 'readonly',
        Headers: 'readonly',
        Response: 'readonly',
        URLSearchParams: 'readonly',
        Intl: 'readonly',
        React: 'readonly',
      },
    },
  },
  prettier,
);

// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/** SDKs and effectful Node modules that only adapters, engine, commands and the CLI may import. */
const effectful = [
  '@slack/bolt',
  '@slack/web-api',
  '@kubernetes/client-node',
  'bullmq',
  'ioredis',
  'pino',
  'prom-client',
  'ws',
  '@proxy-migrate/twin',
  'node:fs',
  'node:fs/promises',
  'node:http',
  'node:https',
  'node:net',
  'node:child_process',
  'node:process',
  'fs',
  'http',
  'child_process',
];

const sdkBan = effectful.map((name) => ({
  name,
  message:
    'Pure code: put the side effect behind a port in src/ports and an adapter in src/adapters.',
}));

/** Layers the pure code must not reach into. */
const outerLayers = ['adapters', 'engine', 'commands', 'cli'].flatMap((dir) => [
  `../${dir}/*`,
  `../../${dir}/*`,
]);

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/dist-check/**', 'coverage/**', '**/node_modules/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use an `as const` union instead of an enum.' },
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  {
    // Pure layers: no SDKs, no I/O, no reaching outwards.
    files: [
      'src/core/**/*.ts',
      'src/checks/**/*.ts',
      'src/probes/**/*.ts',
      'src/verify/**/*.ts',
      'src/runbooks/**/*.ts',
      'src/views/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: sdkBan,
          patterns: [
            {
              group: outerLayers,
              message:
                'Dependencies point inward: pure code must not import adapters, engine, commands or cli.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tool configuration files must default-export; the rule is for product code.
    files: ['*.config.js', '*.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: [
      'test/**/*.ts',
      'bench/**/*.ts',
      'suite/**/*.ts',
      'scripts/**/*.ts',
      'packages/*/test/**/*.ts',
      'packages/*/bench/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // expect.any()/expect.stringMatching() are typed `any` by vitest.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  prettier,
);

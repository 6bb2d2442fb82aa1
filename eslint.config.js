// ESLint flat config. Layer boundaries from docs/architecture.md are enforced here:
// src/engine is pure rules (chessops only), src/drivers is bytes <-> observations, src/emulators
// serves the drivers' emulator cores (above the drivers, below the bridge). The ranks inside
// src/bridge are checked by the import graph (test/architecture/importGraph.ts).
import tseslint from 'typescript-eslint';

const IO_LIBRARIES = [
  'node:*',
  'fs',
  'net',
  'child_process',
  'serialport',
  '@serialport/*',
  'node-hid',
  'mqtt',
  'aedes',
  'rxjs',
  'rxjs/*',
  'http',
  'https',
  'os',
  'path',
  'process',
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'test-artifacts/**',
      'bin/**',
      '.bench-tmp/**',
      '.test-build/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: IO_LIBRARIES,
              message: 'src/engine is pure: no Node or I/O libraries (docs/architecture.md).',
            },
            {
              group: ['**/drivers/**', '**/emulators/**', '**/bridge/**'],
              message: 'src/engine must not import from src/drivers, src/emulators or src/bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/drivers/**/*.ts'],
    // The transports, and the file that keeps a Certabo calibration on disk.
    ignores: ['src/drivers/transport/**', 'src/drivers/certabo/calibrationFile.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['serialport', '@serialport/*', 'node-hid', 'mqtt', 'node:*', 'fs', 'net'],
              message: 'Codecs are pure: only src/drivers/transport touches devices.',
            },
            {
              group: ['**/engine/**', '**/emulators/**', '**/bridge/**'],
              message: 'src/drivers must not import from src/engine, src/emulators or src/bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/drivers/transport/**/*.ts', 'src/drivers/certabo/calibrationFile.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/engine/**', '**/emulators/**', '**/bridge/**'],
              message: 'src/drivers must not import from src/engine, src/emulators or src/bridge.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/emulators/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/bridge/**'],
              message:
                'src/emulators must not import from src/bridge (the demo and simulate use the emulators).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);

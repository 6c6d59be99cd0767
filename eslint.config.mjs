// Lint: type-aware rules that catch lost promises and unsafe patterns; style is left to the formatter.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/**', 'scripts/**', 'generated/**', '*.js', '*.mjs'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'migrations/**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      'no-debugger': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['test/**/*.ts', 'src/main.ts'], rules: { 'no-console': 'off' } },
  {
    // The operator console (issue 19): its own tsconfig (DOM, JSX for Preact).
    files: ['console/src/**/*.ts', 'console/src/**/*.tsx'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { project: './console/tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      'no-debugger': 'error',
      'no-console': 'error',
    },
  },
);

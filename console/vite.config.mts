// Builds the operator console into dist/console (served by the service under /console/). Scripts are external files
// (no inline script: a Content-Security-Policy of `script-src 'self'` holds); no source maps ship.
import preact from '@preact/preset-vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [preact({ devtoolsInProd: false, prefreshEnabled: false })],
  build: {
    outDir: process.env.CONSOLE_OUT_DIR ?? fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});

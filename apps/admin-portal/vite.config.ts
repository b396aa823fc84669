import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Built to static files that the gateway serves at /admin. No inline script or style may be emitted (the
 * page runs under a strict Content-Security-Policy), so the module-preload polyfill stays out and assets
 * are never inlined as data: URLs into scripts.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    // Read by the size-budget spec: which chunks the first page loads.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The admin SPA. Built into dist/admin at the repository root and served by the
 * service at /_cms/admin (see src/http/admin.ts). `vite --config admin/vite.config.ts`
 * runs a dev server that proxies the REST API to a service on CMS_DEV_API (default :4321).
 */
export default defineConfig({
  root,
  base: '/_cms/admin/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Production builds ship no source maps (they would publish the admin's sources).
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    proxy: { '/_cms/api': process.env.CMS_DEV_API ?? 'http://127.0.0.1:4321' },
  },
});

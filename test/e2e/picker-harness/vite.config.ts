import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Builds the MediaPicker test page (test/e2e/media.test.ts serves it under /_cms/picker-harness/). */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/_cms/picker-harness/',
  plugins: [react()],
  logLevel: 'warn',
  build: { emptyOutDir: true, target: 'es2022' },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Builds the agents' screens into ../dist/web, which the console server serves. */
export default defineConfig({
  root: here,
  plugins: [react()],
  build: { outDir: fileURLToPath(new URL('../dist/web', import.meta.url)), emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  logLevel: 'warn',
});

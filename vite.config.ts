import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Monaco and the tokenizer are only reached through dynamic import(), so they land in
// their own chunks and stay out of the initial bundle.
export default defineConfig({
  plugins: [react()],
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  worker: { format: 'es' },
});

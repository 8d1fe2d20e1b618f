import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/auth', '/clientProfile', '/upload', '/test', '/report', '/insight', '/requests', '/operator', '/docs', '/healthz'].map(
        (p) => [p, 'http://127.0.0.1:3000'],
      ),
    ),
  },
});

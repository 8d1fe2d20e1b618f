import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Alias } from 'vite';
import { precompress } from './scripts/precompress-plugin.ts';
import { prerender } from './scripts/prerender-plugin.ts';

const reactRouterDist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist');

const alias: Alias[] = [
  { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
  // react-router's package exports name only its development build, whose dev warnings stay switched on in
  // production (remix-run/react-router#14102). The production build is the same code with them off, which
  // the minifier then drops from the main chunk.
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'production/index.mjs') },
];

export default defineConfig({
  plugins: [react(), prerender(alias), precompress()],
  resolve: { alias },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    // Small CSS stays in its own file so the CSP never needs inline anything.
    assetsInlineLimit: 0,
    // Every browser we support has modulepreload; the polyfill would only add bytes to the main chunk.
    modulePreload: { polyfill: false },
    rollupOptions: {
      treeshake: {
        // The contracts package only declares schemas and constants. Saying so lets the main chunk take the
        // route table without every zod schema behind the package's index (about 20 KB gzip).
        moduleSideEffects: (id) => !/[\\/]packages[\\/]contracts[\\/]src[\\/]/.test(id),
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/auth', '/clientProfile', '/upload', '/test', '/report', '/insight', '/requests', '/bugs', '/team', '/integrations', '/operator', '/docs', '/healthz'].map(
        (p) => [p, 'http://127.0.0.1:3000'],
      ),
    ),
  },
});

import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = path.dirname(fileURLToPath(import.meta.url));
const web = path.join(root, 'apps/web/src');
/** Portal features: each stands alone and shares only portal/components, portal/store and src/lib. */
const PORTAL_FEATURES = ['bugs', 'dashboard', 'history', 'insights', 'login', 'ops', 'reports', 'requests', 'setup', 'team', 'tests'];

/**
 * Imports flow one way in the web app (as in bulletproof-react): shared (lib, components) -> features -> app.
 * Features never import each other, and only the HTTP client touches the stored session.
 */
const webZones = [
  { target: `${web}/features/marketing`, from: `${web}/features/portal`, message: 'marketing must not import portal code' },
  { target: `${web}/features/portal`, from: `${web}/features/marketing`, message: 'portal must not import marketing code' },
  ...PORTAL_FEATURES.map((feature) => ({
    target: `${web}/features/portal/${feature}`,
    from: `${web}/features/portal`,
    except: [`./${feature}`, './components', './store', './styles'],
    message: 'a portal feature imports only its own files, portal/components, portal/store and src/lib',
  })),
  {
    target: [`${web}/features/portal/components`, `${web}/features/portal/store`],
    from: `${web}/features/portal`,
    except: ['./components', './store'],
    message: 'shared portal code must not import a portal feature',
  },
  { target: `${web}/features`, from: `${web}/app`, message: 'features must not import the app' },
  { target: [`${web}/lib`, `${web}/components`, `${web}/config`], from: `${web}/features`, message: 'shared code must not import a feature' },
  {
    target: [`${web}/app`, `${web}/components`, `${web}/features`, `${web}/main.tsx`],
    from: `${web}/lib/auth-storage.ts`,
    message: 'only the HTTP client (lib/http-client.ts) touches the stored session',
  },
];

const server = path.join(root, 'apps/server/src');
/** Server features: each shows others only its face, `index.ts` (issue 23). */
const SERVER_FEATURES = readdirSync(path.join(server, 'features'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
const faces = SERVER_FEATURES.map((feature) => `./${feature}/index.ts`);
/** What the app registers of a feature: its routes (or plugin) and its CLI commands. */
const entries = SERVER_FEATURES.flatMap((feature) => ['routes.ts', 'plugin.ts', 'cli.ts'].map((file) => `./${feature}/${file}`));

/**
 * Server imports: a feature uses another through that feature's `index.ts` only; the app, the CLI and the engine
 * (which composes the test engine's features) also register a feature's entry (routes, plugin, CLI commands).
 * Shared code (lib, db, config, plugins) never imports a feature.
 */
const serverZones = [
  ...SERVER_FEATURES.map((feature) => ({
    target: `${server}/features/${feature}`,
    from: `${server}/features`,
    except: [`./${feature}`, ...faces, ...(feature === 'engine' ? entries : [])],
    message: `a server feature imports another feature only through its face (features/<feature>/index.ts)`,
  })),
  {
    target: [`${server}/app.ts`, `${server}/main.ts`, `${server}/serve.ts`, `${server}/cli`],
    from: `${server}/features`,
    except: [...faces, ...entries],
    message: 'the app and the CLI use a feature through its face (index.ts) or its entry (routes.ts, plugin.ts, cli.ts)',
  },
  {
    target: [`${server}/lib`, `${server}/db`, `${server}/config`, `${server}/plugins`],
    from: `${server}/features`,
    message: 'shared server code must not import a feature',
  },
];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/.output/**', 'data/**', '**/test-results/**', '**/playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // no-cycle reads the imported modules, so it must know TypeScript files and how to parse them.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'], alias: { '@': [web] } })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: webZones }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverZones }],
      'import-x/no-cycle': 'error',
    },
  },
);

import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type AliasOptions, type Plugin, type Rollup } from 'vite';

/**
 * The public pages the build renders to static HTML, each with the modules of its lazy routes (to find the
 * chunks and CSS the page needs, which the HTML then preloads). Portal pages are not prerendered: they depend
 * on who is logged in and are served the empty shell. /login is, as a visitor without a session sees it: the
 * portal's shell (store and styles) around the login page.
 */
export const PRERENDERED_PAGES: Record<string, string | string[]> = {
  '/': 'src/features/marketing/home/home-page.tsx',
  '/services': 'src/features/marketing/services/services-page.tsx',
  '/pricing': 'src/features/marketing/pricing/pricing-page.tsx',
  '/contact-us': 'src/features/marketing/contact/contact-page.tsx',
  '/privacy-policy': 'src/features/marketing/legal/privacy-policy-page.tsx',
  '/cookie-policy': 'src/features/marketing/legal/cookie-policy-page.tsx',
  '/terms-of-service': 'src/features/marketing/legal/terms-of-service-page.tsx',
  '/disclaimer': 'src/features/marketing/legal/disclaimer-page.tsx',
  '/login': ['src/features/portal/portal-shell.tsx', 'src/features/portal/login/login-page.tsx'],
};

/** Where the build records the source modules of each chunk (see writeBundle). */
export const CHUNK_MAP_FILE = (webRoot: string) => path.join(webRoot, 'node_modules', '.cache', 'fullstop-web', 'chunk-modules.json');

/** Rendered to dist/404.html, which the server answers (with status 404) for unknown paths. */
const NOT_FOUND_PROBE = '/__fullstop-not-found__';

interface PrerenderModule {
  renderPage(pathname: string): Promise<string>;
  titleFor(pathname: string): string;
}

/** Chunk files and CSS files a page's modules need beyond the entry chunk. */
function assetsOf(bundle: Rollup.OutputBundle, moduleFiles: string[]): { js: string[]; css: string[] } {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const starts = moduleFiles.map((moduleFile) => {
    const start = chunks.find((c) => c.facadeModuleId === moduleFile);
    if (!start) throw new Error(`prerender: no chunk for ${moduleFile}; is it still lazy-loaded by a route?`);
    return start;
  });
  const js = new Set<string>();
  const css = new Set<string>();
  const visit = (chunk: Rollup.OutputChunk) => {
    if (chunk.isEntry || js.has(chunk.fileName)) return;
    js.add(chunk.fileName);
    chunk.viteMetadata?.importedCss.forEach((f) => css.add(f));
    for (const dep of chunk.imports) {
      const next = bundle[dep];
      if (next?.type === 'chunk') visit(next);
    }
  };
  starts.forEach(visit);
  return { js: [...js], css: [...css] };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * A prerendered page is on screen before any script runs, so its scripts are fetched at low priority: the
 * stylesheets the first paint waits for get the bandwidth first. The empty shell keeps the default, since the
 * portal shows nothing until its scripts have run.
 */
const lowPriorityScripts = (html: string) =>
  html.replace(/<(script type="module"|link rel="modulepreload")( crossorigin)?/g, (_m, tag: string, co = '') => `<${tag} fetchpriority="low"${co}`);

function fillShell(shell: string, title: string, body: string, head: string): string {
  const withTitle = shell.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  const filled = withTitle.replace('</head>', `${head}</head>`).replace('<div id="root"></div>', `<div id="root">${body}</div>`);
  return lowPriorityScripts(filled);
}

export function prerender(alias: AliasOptions): Plugin {
  let root = '';
  let outDir = '';
  let ssr = false;
  let bundle: Rollup.OutputBundle | undefined;
  return {
    name: 'fullstop-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    writeBundle(_options, output) {
      bundle = output;
      if (ssr) return;
      // Which source modules went into which chunk: the Lighthouse bench uses it to prove that public pages
      // load no portal or chart code. Kept out of dist/ so module paths are never served.
      const map = Object.fromEntries(
        Object.values(output)
          .filter((c): c is Rollup.OutputChunk => c.type === 'chunk')
          .map((c) => [c.fileName, Object.keys(c.modules).map((id) => path.relative(root, id).replace(/\\/g, '/'))]),
      );
      mkdirSync(path.dirname(CHUNK_MAP_FILE(root)), { recursive: true });
      writeFileSync(CHUNK_MAP_FILE(root), JSON.stringify(map, null, 1));
    },
    async closeBundle() {
      if (ssr || !bundle) return;
      const ssrOut = path.join(root, 'node_modules', '.fullstop-prerender');
      await build({
        root,
        configFile: false,
        logLevel: 'warn',
        resolve: { alias },
        plugins: [react()],
        build: { ssr: 'src/app/prerender.tsx', outDir: ssrOut, emptyOutDir: true, target: 'node22' },
      });
      try {
        const mod = (await import(pathToFileURL(path.join(ssrOut, 'prerender.js')).href)) as PrerenderModule;
        // The shell comes from this build's own output, not from disk: another build writing the same dist/
        // at the same time must not hand us an already prerendered page as the shell.
        const html = bundle['index.html'];
        const shell = html?.type === 'asset' ? String(html.source) : readFileSync(path.join(outDir, 'index.html'), 'utf8');
        if (!shell.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty #root to fill');
        writeFileSync(path.join(outDir, 'shell.html'), shell);
        for (const [pathname, modules] of Object.entries(PRERENDERED_PAGES)) {
          const { js, css } = assetsOf(bundle, [modules].flat().map((m) => path.join(root, m)));
          const head = [
            ...css.map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
            ...js.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
          ].join('');
          const html = fillShell(shell, mod.titleFor(pathname), await mod.renderPage(pathname), head);
          const file = pathname === '/' ? path.join(outDir, 'index.html') : path.join(outDir, pathname, 'index.html');
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, html);
        }
        const notFound = fillShell(shell, mod.titleFor(NOT_FOUND_PROBE), await mod.renderPage(NOT_FOUND_PROBE), '');
        writeFileSync(path.join(outDir, '404.html'), notFound);
      } finally {
        rmSync(ssrOut, { recursive: true, force: true });
      }
    },
  };
}

// Six bundles: the extension (client), the three parts it loads lazily (engine, analysis,
// language client), the language server (stdio) and the CLI.
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  minify: process.argv.includes('--minify'),
};

// Activation pays for every byte of dist/extension.js (V8 compiles all of it and runs every ES
// module's top level), so the engine and the core analysis live in their own bundles:
// client/lazy.ts requires './engineBundle.js', './analysisBundle.js' and
// './languageClientBundle.js', which are redirected here to the sibling dist/engine.js,
// dist/analysis.js and dist/languageClient.js instead of being inlined.
const lazyBundles = {
  name: 'lazy-bundles',
  setup(build) {
    build.onResolve({ filter: /^\.\/(engine|analysis|languageClient)Bundle\.js$/ }, (a) => ({ path: `./${a.path.slice(2, -'Bundle.js'.length)}.js`, external: true }));
  },
};
// What must never reach the extension bundle again (issue 7: activation ≤ 100 ms).
const HEAVY = /(^|\/)(engine\/|core\/(analyze|checks\/|schema\/)|node_modules\/(@modelcontextprotocol\/sdk|openai|@anthropic-ai\/sdk|jq-wasm|ajv|vscode-languageclient)\/)/;
const guardExtension = {
  name: 'guard-extension',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      const heavy = Object.keys(result.metafile.inputs).filter((f) => HEAVY.test(f));
      if (heavy.length) {
        const list = heavy.slice(0, 5).join(', ');
        result.errors.push({ text: `dist/extension.js must not bundle the engine or its SDKs (load them through client/engineLoader.ts): ${list}${heavy.length > 5 ? ', …' : ''}` });
      }
    });
  },
};

const entries = [
  { in: 'client/extension.ts', out: 'dist/extension.js', external: ['vscode'], plugins: [lazyBundles, guardExtension], metafile: true },
  { in: 'client/engineBundle.ts', out: 'dist/engine.js', external: [] },
  { in: 'client/analysisBundle.ts', out: 'dist/analysis.js', external: [] },
  { in: 'client/languageClientBundle.ts', out: 'dist/languageClient.js', external: ['vscode'] },
  { in: 'server/main.ts', out: 'dist/server.js', external: [] },
  { in: 'cli/main.ts', out: 'dist/cli.js', external: [], banner: { js: '#!/usr/bin/env node' } },
].filter((e) => existsSync(e.in));

const contexts = await Promise.all(entries.map((e) => esbuild.context({
  ...common,
  entryPoints: [e.in],
  outfile: e.out,
  external: e.external,
  banner: e.banner,
  plugins: e.plugins,
  metafile: e.metafile,
})));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  const results = await Promise.allSettled(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  if (results.some((r) => r.status === 'rejected')) process.exit(1);
}

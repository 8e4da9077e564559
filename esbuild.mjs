// Three bundles: the extension (client), the language server (stdio) and the CLI.
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
const entries = [
  { in: 'client/extension.ts', out: 'dist/extension.js', external: ['vscode'] },
  { in: 'server/main.ts', out: 'dist/server.js', external: [] },
  { in: 'cli/main.ts', out: 'dist/cli.js', external: [], banner: { js: '#!/usr/bin/env node' } },
].filter((e) => existsSync(e.in));

const contexts = await Promise.all(entries.map((e) => esbuild.context({
  ...common,
  entryPoints: [e.in],
  outfile: e.out,
  external: e.external,
  banner: e.banner,
})));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}

// `nika-run init [DIR] [--template basic|agent|pipeline]`: a ready project; existing files are kept.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { styler } from './style.js';
import { TEMPLATES, templateFiles, type TemplateName } from './templates.js';

export function initCommand(dir: string, template: string): number {
  const s = styler(process.stdout);
  if (!TEMPLATES.includes(template as TemplateName)) {
    process.stderr.write(`unknown template '${template}' (choose ${TEMPLATES.join(', ')})\n`);
    return 2;
  }
  const root = resolve(dir);
  const name = basename(root);
  for (const [rel, content] of Object.entries(templateFiles(template as TemplateName, name))) {
    const p = join(root, rel);
    if (existsSync(p)) {
      process.stdout.write(`  ${s.yellow('kept')}    ${rel} ${s.dim('(already exists)')}\n`);
      continue;
    }
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    process.stdout.write(`  ${s.green('created')} ${rel}\n`);
  }
  const wf = template === 'basic' ? 'hello.nika.yaml' : `${template}.nika.yaml`;
  process.stdout.write(`\n${s.bold('next')}: cd ${dir} && nika-run run workflows/${wf}\n`);
  return 0;
}

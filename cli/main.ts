// nika-run: the headless face of the engine (design.md, "CLI"). The command name differs from
// `nika`, the official engine.
import { parseArgs } from 'node:util';
import { runCheck } from './check.js';
import { initCommand } from './init.js';
import { mcpList } from './mcp.js';
import { runCommand } from './run.js';

const USAGE = `usage:
  nika-run check FILE… [--json] [--strict]   (--strict: warnings are findings too)
  nika-run run FILE [--var k=v]… [--model provider/name] [--task ID] [--json] [--mcp-config FILE] [--max-parallel N]
  nika-run mcp list [--json] [--mcp-config FILE]
  nika-run init [DIR] [--template basic|agent|pipeline]
exit codes: 0 ok · 1 workflow failed · 2 refused (check findings, bad arguments) · 130 cancelled`;

function usage(msg?: string): number {
  if (msg) process.stderr.write(`${msg}\n`);
  process.stderr.write(USAGE + '\n');
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'check': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { json: { type: 'boolean', default: false }, strict: { type: 'boolean', default: false } } });
        if (positionals.length === 0) return usage('check needs at least one FILE');
        return runCheck(positionals, values.json!, values.strict!);
      }
      case 'run': {
        const { values, positionals } = parseArgs({
          args: rest, allowPositionals: true,
          options: {
            var: { type: 'string', multiple: true, default: [] },
            model: { type: 'string' },
            task: { type: 'string' },
            json: { type: 'boolean', default: false },
            'mcp-config': { type: 'string' },
            'max-parallel': { type: 'string' },
          },
        });
        if (positionals.length !== 1) return usage('run needs exactly one FILE');
        const mp = values['max-parallel'] !== undefined ? Number(values['max-parallel']) : undefined;
        if (mp !== undefined && (!Number.isInteger(mp) || mp < 1)) return usage('--max-parallel needs a whole number ≥ 1');
        return await runCommand(positionals[0], {
          vars: values.var as string[], model: values.model, task: values.task, json: values.json!,
          mcpConfig: values['mcp-config'], maxParallel: mp,
        });
      }
      case 'mcp': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { json: { type: 'boolean', default: false }, 'mcp-config': { type: 'string' } } });
        if (positionals[0] !== 'list') return usage(`unknown mcp subcommand '${positionals[0] ?? ''}'`);
        return await mcpList({ json: values.json!, mcpConfig: values['mcp-config'] });
      }
      case 'init': {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { template: { type: 'string', default: 'basic' } } });
        return initCommand(positionals[0] ?? '.', values.template!);
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE + '\n');
        return cmd === undefined ? 2 : 0;
      default:
        return usage(`unknown command '${cmd}'`);
    }
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) return usage((e as Error).message);
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Let stdout drain before leaving (pipes are asynchronous).
    process.stdout.write('', () => process.exit(code));
  },
  (e) => {
    process.stderr.write(`internal error: ${(e as Error).stack ?? e}\n`);
    process.exit(70);
  },
);

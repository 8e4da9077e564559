// The JSON Schemas we ship and our structure checks must tell the same story: for every
// workflow in examples/ and test/fixtures/ (globbed at run time, so files added later are
// covered), "no structure error" ⇔ "valid per the standalone schema through plain ajv".
// Duplicate keys are the one YAML-level finding a JSON validator cannot see, so they are left
// out of the comparison; files that do not parse as YAML are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import { plain } from '../../core/document.js';
import { structure } from './structure-helpers.js';

const repo = join(__dirname, '..', '..');
const schemaFile: Record<string, string> = {
  v1: 'workflow.schema.json',
  'v1-draft': 'draft-workflow.schema.json',
  legacy: 'legacy-workflow.schema.json',
};

function load(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(repo, 'schemas', name), 'utf8')) as Record<string, unknown>;
}

// A fresh ajv per schema, configured like a plain third-party user would (no Nika glue).
const validators = Object.fromEntries(Object.entries(schemaFile).map(([dialect, name]) => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return [dialect, ajv.compile(load(name))];
}));

function workflows(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    if (n === 'node_modules') return [];
    const p = join(dir, n);
    return statSync(p).isDirectory() ? workflows(p) : /\.nika\.ya?ml$/.test(n) ? [p] : [];
  });
}

const files = [...workflows(join(repo, 'examples')), ...workflows(join(repo, 'test', 'fixtures'))];

test('there are workflows to compare', () => {
  assert.ok(files.length >= 8, `only ${files.length} workflow files found`);
});

for (const file of files) {
  const rel = relative(repo, file);
  test(`schema and checks agree: ${rel}`, (t) => {
    const text = readFileSync(file, 'utf8');
    const r = structure(text);
    if (r.doc.parseDiagnostics.length > 0 || !r.doc.yaml) { t.skip('not parseable YAML'); return; }
    const value = r.doc.yaml.contents == null ? {} : plain(r.doc.yaml.contents);
    const errors = r.errors.filter((e) => e.code !== 'NIKA-PARSE-017');
    const validate = validators[r.dialect];
    const schemaOk = validate(value) as boolean;
    const detail = `checks: ${JSON.stringify(errors.map((e) => `${e.code} ${e.range} ${e.message}`))}\najv: ${JSON.stringify(validate.errors?.map((e) => `${e.instancePath} ${e.message}`))}`;
    assert.equal(errors.length === 0, schemaOk, detail);
    // The schema editors use for every *.nika.yaml must not flag older dialects it cannot judge.
    if (r.dialect !== 'v1') assert.equal(validators.v1(value), true, `workflow.schema.json rejects a ${r.dialect} file`);
  });
}

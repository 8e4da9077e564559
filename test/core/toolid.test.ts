import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatToolId, matchToolPattern, parseToolId, toolAllowed, toolPatternProblem } from '../../core/toolid.js';

function reason(s: string): string {
  const r = parseToolId(s);
  assert.equal(r.kind, 'invalid', `${s} should be invalid`);
  return r.kind === 'invalid' ? r.reason : '';
}

describe('parseToolId', () => {
  it('parses builtin ids', () => {
    assert.deepEqual(parseToolId('nika:read'), { kind: 'nika', name: 'read' });
    assert.deepEqual(parseToolId('nika:json_merge_patch'), { kind: 'nika', name: 'json_merge_patch' });
    // Grammatically admitted; whether it exists is NIKA-INVOKE-001, decided by the checker.
    assert.deepEqual(parseToolId('nika:nope'), { kind: 'nika', name: 'nope' });
    assert.deepEqual(parseToolId('nika:group/tool'), { kind: 'nika', name: 'group/tool' });
  });

  it('parses mcp ids, including digit-led servers and nested tool paths', () => {
    assert.deepEqual(parseToolId('mcp:everything/echo'), { kind: 'mcp', server: 'everything', tool: 'echo' });
    assert.deepEqual(parseToolId('mcp:21st/create_component'), { kind: 'mcp', server: '21st', tool: 'create_component' });
    assert.deepEqual(parseToolId('mcp:browser/tabs/Open-New'), { kind: 'mcp', server: 'browser', tool: 'tabs/Open-New' });
    assert.equal(formatToolId({ kind: 'mcp', server: 's', tool: 't/u' }), 'mcp:s/t/u');
  });

  it('explains invalid ids', () => {
    assert.match(reason('postgres::query'), /legacy.*mcp:postgres\/query/);
    assert.match(reason('mcp:postgres'), /missing '\/<tool>'.*mcp:postgres\//);
    assert.match(reason('x-acme:deploy'), /reserved/);
    assert.match(reason('shell:run'), /unknown namespace 'shell:'/);
    assert.match(reason('mcp:pg/db.query'), /dots/);
    assert.match(reason('nika:fs.read'), /dots/);
    assert.match(reason('read'), /did you mean nika:read/);
    assert.match(reason('nika:Read'), /did you mean nika:read/);
    assert.match(reason('mcp:My_Server/x'), /kebab-case/);
    assert.match(reason('mcp:s/'), /missing tool name/);
    assert.match(reason('mcp:/t'), /missing server/);
    assert.match(reason('mcp:s/a b'), /whitespace/);
    assert.match(reason('nika:'), /missing builtin name/);
    assert.match(reason(''), /empty/);
  });
});

describe('tool globs', () => {
  it('* stays within one segment', () => {
    assert.equal(matchToolPattern('mcp:browser/*', 'mcp:browser/navigate'), true);
    assert.equal(matchToolPattern('mcp:browser/*', 'mcp:browser/a/b'), false);
    assert.equal(matchToolPattern('mcp:browser/*', 'mcp:browsers/x'), false);
    assert.equal(matchToolPattern('mcp:*/echo', 'mcp:everything/echo'), true);
    assert.equal(matchToolPattern('nika:*', 'nika:read'), true);
  });

  it('* never crosses the namespace colon', () => {
    assert.equal(matchToolPattern('*', 'nika:read'), false);
    assert.equal(matchToolPattern('*:read', 'nika:read'), true);
    assert.equal(matchToolPattern('mcp:*', 'mcp:browser/x'), false);
  });

  it('** crosses /', () => {
    assert.equal(matchToolPattern('mcp:browser/**', 'mcp:browser/a/b'), true);
    assert.equal(matchToolPattern('mcp:browser/**', 'mcp:browser/a'), true);
    assert.equal(matchToolPattern('mcp:**', 'mcp:any/thing/deep'), true);
    assert.equal(matchToolPattern('mcp:**', 'nika:read'), false);
  });

  it('treats other characters literally', () => {
    assert.equal(matchToolPattern('mcp:a.b/c', 'mcp:aXb/c'), false);
    assert.equal(matchToolPattern('mcp:s/t?', 'mcp:s/tx'), false);
    assert.equal(matchToolPattern('nika:read', 'nika:read'), true);
  });

  it('denies by default and lets the last matching rule win', () => {
    assert.equal(toolAllowed([], 'nika:read'), false);
    assert.equal(toolAllowed(['nika:write'], 'nika:read'), false);
    assert.equal(toolAllowed(['mcp:browser/*', '!mcp:browser/navigate'], 'mcp:browser/navigate'), false);
    assert.equal(toolAllowed(['mcp:browser/*', '!mcp:browser/navigate'], 'mcp:browser/click'), true);
    assert.equal(toolAllowed(['!mcp:browser/navigate', 'mcp:browser/*'], 'mcp:browser/navigate'), true);
    assert.equal(toolAllowed(['mcp:**', '!mcp:fs/**', 'mcp:fs/read_file'], 'mcp:fs/read_file'), true);
    assert.equal(toolAllowed(['mcp:**', '!mcp:fs/**', 'mcp:fs/read_file'], 'mcp:fs/write_file'), false);
  });

  it('checks pattern shapes', () => {
    assert.equal(toolPatternProblem('!mcp:browser/*'), undefined);
    assert.equal(toolPatternProblem('nika:read'), undefined);
    assert.match(toolPatternProblem('browser/*') ?? '', /nika: or mcp:/);
    assert.match(toolPatternProblem('mcp:pg') ?? '', /missing/);
  });
});

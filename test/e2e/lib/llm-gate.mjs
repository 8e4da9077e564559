// The test suite's loopback LLM server (test/support/llm-server.ts, standalone mode) behind a
// small forwarding proxy that can hold model requests: request number `holdFrom` and later wait
// until release() is called. That lets a journey look at an agent mid-run deterministically.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

export async function startLlm({ repo, script, holdFrom = 2, log = console.log }) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repo, 'test/support/llm-server.ts'), '--port', '0', '--script', script], {
    cwd: repo, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const upstream = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/[^\s]+/.exec(out);
      if (m) resolve(new URL(m[0]));
    });
    child.on('exit', (code) => reject(new Error(`llm-server exited (${code}): ${stderr}`)));
  });

  let modelRequests = 0;
  let open = false;
  const waiting = [];
  const proxy = http.createServer((req, res) => {
    const forward = () => {
      const up = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
      req.pipe(up);
    };
    const isModel = req.method === 'POST' && /\/(chat\/completions|messages)$/.test(req.url ?? '');
    if (isModel && ++modelRequests >= holdFrom && !open) {
      log(`  [llm gate] holding model request #${modelRequests} until the journey releases it`);
      waiting.push(forward);
    } else forward();
  });
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${proxy.address().port}`;
  return {
    /** Base URL for OpenAI-compatible clients. */
    openaiBaseUrl: `${url}/v1`,
    release() {
      open = true;
      for (const f of waiting.splice(0)) f();
    },
    async close() {
      this.release();
      proxy.closeAllConnections?.();
      await new Promise((r) => proxy.close(() => r()));
      child.kill('SIGTERM');
    },
  };
}

// Quick loop for one server and one size: tsx bench/one.ts [tasks] [server] [rounds]
import { SERVERS, measureServer } from './lsp.js';
const n = Number(process.argv[2] ?? 1000);
const name = process.argv[3] ?? 'nika';
const rounds = Number(process.argv[4] ?? 50);
(async () => {
  const s = SERVERS.find((x) => x.name === name)!;
  const f = await measureServer(s, n, { edits: rounds, completions: rounds });
  console.log(JSON.stringify(f));
})();

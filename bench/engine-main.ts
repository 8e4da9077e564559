// The engine figures in a process of their own (bench/run.ts starts it): forks cost more the
// bigger the parent, and the language-server runs before them leave a large heap behind.
// Prints the figures as one JSON line.
import { engineBench } from './engine.js';

engineBench().then((figs) => {
  process.stdout.write(JSON.stringify(figs) + '\n');
  process.exit(0);
}, (e) => {
  console.error(e);
  process.exit(1);
});

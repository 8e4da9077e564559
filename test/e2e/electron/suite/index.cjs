// Test entry loaded by the extension host (extensionTestsPath): runs the mocha suite next to it.
// mocha comes from the e2e kit (NIKA_E2E_KIT), not from the project's dependencies.
const path = require('node:path');
const fs = require('node:fs');

exports.run = async function run() {
  const kit = process.env.NIKA_E2E_KIT;
  const Mocha = require(kit ? require.resolve('mocha', { paths: [kit] }) : 'mocha');
  const mocha = new Mocha({ ui: 'tdd', timeout: 120_000, color: false, reporter: Reporter(Mocha) });
  for (const f of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.cjs')).sort()) mocha.addFile(path.join(__dirname, f));
  await new Promise((resolve, reject) => mocha.run((failures) => (failures ? reject(new Error(`${failures} test(s) failed`)) : resolve())));
};

// Finished lines with a prefix the runners pick out of the window log (the extension host's
// console reaches the browser/Electron console without printf formatting).
function Reporter(Mocha) {
  return class extends Mocha.reporters.Base {
    constructor(runner) {
      super(runner);
      const out = (s) => {
        console.log(`[nika-e2e] ${s}`);
        if (process.env.NIKA_E2E_LOG) fs.appendFileSync(process.env.NIKA_E2E_LOG, s + '\n');
      };
      runner.on('pass', (t) => out(`ok   ${t.fullTitle()}`));
      runner.on('fail', (t, e) => out(`FAIL ${t.fullTitle()}: ${e && e.message}`));
      runner.on('end', () => out(`${this.stats.passes} passing, ${this.stats.failures} failing`));
    }
  };
}

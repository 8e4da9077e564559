// What the fixture workspace must produce, shared by the UI journeys (journeys/*.mjs) and the
// in-host suite (electron/suite/*.cjs, run by @vscode/test-electron or inside code-server).
module.exports = {
  broken: { file: 'broken.nika.yaml', code: 'NIKA-PARSE-005', bad: 'temprature', fixTitle: 'Change to "temperature"', fixed: 'temperature: 0.2' },
  complete: { file: 'complete.nika.yaml', server: 'mcp:everything/', tools: ['mcp:everything/echo', 'mcp:everything/get-sum'] },
  run: { file: 'run.nika.yaml', task: 'hello', output: 'hello from the e2e journey', runLens: '▶ Run task' },
  tools: { file: 'tools.nika.yaml', echoArg: 'hello from the e2e journey', echoResult: 'Echo: hello from the e2e journey' },
  agent: { file: 'agent.nika.yaml', task: 'scout', toolResult: 'Echo: tidal', firstTurn: 'Let me ask the echo tool first.', finalAnswer: 'Final answer: the tide is high.' },
  untrustedLens: 'Runs need a trusted workspace',
};

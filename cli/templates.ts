// Project templates for `nika-run init` (seed 003): each workflow passes `check` and runs offline
// on mock/echo; switch `model:` to a real provider when you have a key.
export type TemplateName = 'basic' | 'agent' | 'pipeline';
export const TEMPLATES: readonly TemplateName[] = ['basic', 'agent', 'pipeline'];

const HEADER = '# yaml-language-server: $schema=https://nika.sh/spec/v1/workflow.schema.json\n';

const BASIC = `${HEADER}nika: hello
# mock/echo answers offline; try anthropic/claude-sonnet-4-5 or ollama/qwen3.5:4b
model: mock/echo
inputs:
  name: { type: string, default: "world" }
permits: {}
tasks:
  greet:
    infer:
      prompt: "Write a one-line greeting for \${{ inputs.name }}."
outputs:
  greeting: \${{ tasks.greet.output }}
`;

const AGENT = `${HEADER}nika: agent
model: mock/echo
inputs:
  question: { type: string, default: "Echo back the word hello." }
permits:
  tools: ["mcp:everything/echo", "nika:done"]
tasks:
  helper:
    agent:
      prompt: "\${{ inputs.question }}"
      system: "Use the echo tool, then call nika:done with your answer."
      tools: ["mcp:everything/echo", "nika:done"]
      max_turns: 4
outputs:
  answer: \${{ tasks.helper.output }}
`;

const PIPELINE = `${HEADER}nika: pipeline
model: mock/echo
inputs:
  topics: { type: { array: string }, default: ["rivers", "mountains", "deserts"] }
permits:
  exec: [echo]
  tools: ["nika:jq"]
tasks:
  outline:
    for_each: { items: "\${{ inputs.topics }}", max_parallel: 2 }
    infer:
      prompt: "One sentence about \${{ item }}."
  stamp:
    exec:
      command: [echo, "pipeline run"]
  combine:
    with:
      sentences: "\${{ tasks.outline.output }}"
      label: "\${{ tasks.stamp.output }}"
    invoke:
      tool: "nika:jq"
      args:
        expression: "{label: .label, count: (.sentences | length), sentences: .sentences}"
        input:
          label: "\${{ with.label }}"
          sentences: "\${{ with.sentences }}"
outputs:
  report: \${{ tasks.combine.output }}
`;

const MCP_JSON = JSON.stringify({
  mcpServers: {
    everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
  },
}, null, 2) + '\n';

const ENV_EXAMPLE = `# Keys for real models (mock/echo needs none). Copy to .env or export them.
ANTHROPIC_API_KEY=
OPENAI_API_KEY=
# OpenAI-compatible servers: NIKA_<PROVIDER>_BASE_URL / NIKA_<PROVIDER>_API_KEY
`;

function readme(name: string, wf: string): string {
  return `# ${name}

A Nika workflow project.

\`\`\`sh
nika-run check workflows/${wf}
nika-run run workflows/${wf} --model mock/echo
\`\`\`

\`model: mock/echo\` answers offline. Set \`model:\` to a real provider
(\`anthropic/…\`, \`openai/…\`, \`ollama/…\`) and put its key in the environment (see \`.env.example\`).
`;
}

export function templateFiles(template: TemplateName, projectName: string): Record<string, string> {
  const wf = template === 'basic' ? 'hello.nika.yaml' : `${template}.nika.yaml`;
  const body = template === 'basic' ? BASIC : template === 'agent' ? AGENT : PIPELINE;
  const files: Record<string, string> = {
    [`workflows/${wf}`]: body,
    '.env.example': ENV_EXAMPLE,
    'README.md': readme(projectName, wf),
    '.gitignore': '.env\n.nika/\n',
  };
  if (template === 'agent') files['.mcp.json'] = MCP_JSON;
  return files;
}

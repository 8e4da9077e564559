// Generated workflows for the benchmarks: a realistic mix of the four verbs, `with:` bindings
// and `after:` edges to earlier tasks, expressions in prompts/args, some `when:`/`for_each`.
// Deterministic (seeded) so every run and every tool sees the same text.

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function taskId(i: number): string {
  return `step_${String(i).padStart(4, '0')}`;
}

export function generateWorkflow(tasks: number, seed = 7): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const out: string[] = [
    '# yaml-language-server: $schema=../schemas/workflow.schema.json',
    `nika: bench-${tasks}`,
    'model: mock/echo',
    'inputs:',
    '  topic: { type: string, default: "tidal energy" }',
    '  verbose: { type: bool, default: false }',
    '  cities: { type: { array: string }, default: ["Lyon", "Oslo"] }',
    'permits:',
    '  exec: [printf, echo]',
    '  tools: ["nika:jq", "nika:log", "mcp:everything/echo", "nika:done"]',
    'tasks:',
  ];
  for (let i = 0; i < tasks; i++) {
    const id = taskId(i);
    const earlier = i > 0 ? taskId(Math.max(0, i - 1 - Math.floor(r() * Math.min(i, 20)))) : undefined;
    out.push(`  ${id}:`);
    if (earlier && r() < 0.6) out.push(`    with: { prev: "\${{ tasks.${earlier}.output }}" }`);
    else if (earlier && r() < 0.5) out.push(`    after: { ${earlier}: success }`);
    if (r() < 0.08) out.push('    when: ${{ inputs.verbose == true }}');
    const bound = out[out.length - 1].includes('with:') ? '${{ with.prev }}' : '${{ inputs.topic }}';
    const verb = pick(['infer', 'infer', 'exec', 'invoke', 'invoke', 'agent'] as const);
    if (r() < 0.05 && verb !== 'agent') {
      out.push('    for_each: { items: "${{ inputs.cities }}", max_parallel: 2 }');
    }
    switch (verb) {
      case 'infer':
        out.push('    infer:', `      prompt: "Step ${i}: summarize ${bound} in one sentence."`);
        if (r() < 0.3) out.push('      temperature: 0.2');
        break;
      case 'exec':
        out.push('    exec:', `      command: [printf, "%s\\n", "${bound}"]`);
        break;
      case 'invoke':
        if (r() < 0.5) {
          out.push('    invoke:', '      tool: "nika:log"', `      args: { message: "step ${i}", data: "${bound}" }`);
        } else {
          out.push('    invoke:', '      tool: "mcp:everything/echo"', '      args:', `        message: "${bound}"`);
        }
        break;
      case 'agent':
        out.push(
          '    agent:',
          `      prompt: "Use echo on ${bound}, then call nika:done."`,
          '      tools: ["mcp:everything/echo", "nika:done"]',
          '      max_turns: 3',
        );
        break;
    }
  }
  out.push('outputs:', `  last: \${{ tasks.${taskId(tasks - 1)}.output }}`, '');
  return out.join('\n');
}

/** Where a benchmark types: the prompt of a task near the middle of the file. */
export function editPoint(text: string): number {
  const mid = text.indexOf('prompt: "Step ', Math.floor(text.length / 2));
  return mid + 'prompt: "Step '.length;
}

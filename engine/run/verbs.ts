// Interpolates a verb body in the task's scope and runs it. Bodies are rendered at the last
// moment, per attempt, so a retry sees the same values and a for_each iteration sees its item.
import type { AgentBody, ExecBody, InferBody, InvokeBody, Task } from '../../core/ir.js';
import { interpolateDeep, renderTemplate, type EvalScope } from '../../core/expr/index.js';
import { runAgent } from '../ai/agent.js';
import { runInfer } from '../ai/infer.js';
import { NikaError, type Usage, type VerbContext } from '../contracts.js';
import { runExec } from '../exec/run-exec.js';
import { callTool, listToolSchemas, readResource } from '../tools.js';
import type { TaskHost } from './host.js';

export interface VerbResult { output: unknown; usage?: Usage }

export async function runVerb(host: TaskHost, task: Task, scope: EvalScope, signal: AbortSignal, index?: number): Promise<VerbResult> {
  const body = task.body;
  if (!body) throw new NikaError('NIKA-PARSE-008', `task '${task.id}' has no verb`);
  const tctx = (inAgent: boolean) => host.toolContext({ taskId: task.id, index, signal, inAgent, timeoutMs: task.timeoutMs });
  switch (body.verb) {
    case 'exec': {
      const b = interpolateDeep(body, scope) as ExecBody;
      const workflowEnv = host.wf.dialect === 'v1-draft' ? stringMap(interpolateDeep(host.wf.env, scope)) : undefined;
      return { output: await runExec(b, { cwd: host.cwd, env: host.env, signal, boundary: host.boundary, workflowEnv, graceMs: host.killGraceMs }) };
    }
    case 'invoke': {
      const b = body as InvokeBody;
      const args = (interpolateDeep(b.args ?? {}, scope) ?? {}) as Record<string, unknown>;
      if (b.resource) {
        const uri = String(renderTemplate(b.resource.uri, scope));
        return { output: await readResource(b.resource.server, uri, tctx(false)) };
      }
      if (b.workflow) throw new NikaError('NIKA-COMP-001', `invoke: { workflow: ${b.workflow} } (child workflows) is not supported by this engine yet`);
      if (!b.tool) throw new NikaError('NIKA-PARSE-018', 'invoke needs tool:');
      return { output: await callTool(String(renderTemplate(b.tool, scope)), args, tctx(false)) };
    }
    case 'infer': {
      const r = await runInfer(interpolateDeep(body, scope) as InferBody, verbContext(host, task, signal, index, tctx(true)));
      return { output: r.output, usage: r.usage };
    }
    case 'agent': {
      const r = await runAgent(interpolateDeep(body, scope) as AgentBody, verbContext(host, task, signal, index, tctx(true)));
      return { output: r.output, usage: r.usage };
    }
  }
}

function verbContext(host: TaskHost, task: Task, signal: AbortSignal, index: number | undefined, tc: ReturnType<TaskHost['toolContext']>): VerbContext {
  return {
    runId: host.runId,
    taskId: task.id,
    index,
    signal,
    emit: (e) => host.emit({ ...(e as object), task_id: task.id, ...(index !== undefined ? { index } : {}) } as never),
    defaultModel: host.defaultModel,
    modelOverride: host.modelOverride,
    env: host.env,
    callTool: (id, args) => callTool(id, args, tc),
    listToolSchemas: (patterns) => listToolSchemas(patterns, tc),
    cwd: host.cwd,
  };
}

/** The model a task will use, for `task_started` (before its body is rendered). */
export function displayModel(host: TaskHost, task: Task): string | undefined {
  if (task.body?.verb !== 'infer' && task.body?.verb !== 'agent') return undefined;
  const own = task.body.model;
  return host.modelOverride ?? (own && !own.includes('${{') ? own : undefined) ?? host.defaultModel;
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries((v as Record<string, unknown>) ?? {})) {
    if (x !== null && x !== undefined) out[k] = typeof x === 'string' ? x : JSON.stringify(x);
  }
  return out;
}

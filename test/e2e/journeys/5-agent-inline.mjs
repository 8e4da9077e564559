// Journey 5: an agent task on an OpenAI-compatible model (the test suite's loopback LLM server)
// streams its turns into the comment thread under the task while it runs, and ends with the final
// answer there. The loopback's second turn is held at a gate until the first turn is on screen,
// so "while it runs" is a state the page is in, not a race.
export const title = 'agent output inline';

const THREAD = '.part.editor .editor-group-container.active .zone-widget';

export async function run({ ui, page, check, shot, gate }) {
  await ui.openFile('agent.nika.yaml');
  await ui.focusLine('permits');
  const lens = ui.editor.locator('.codelens-decoration a', { hasText: '▶ Run task' }).first();
  await lens.waitFor();
  await ui.focusLine('permits');
  await lens.click();

  const thread = page.locator(THREAD).first();
  // Turn 1, the tool call and its result are shown live, before turn 2 exists.
  await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((e) => {
    const t = e.innerText;
    return t.includes('Echo: tidal') && t.includes('Let me ask the echo tool first.') && /running|live/.test(t);
  }), THREAD);
  const live = await thread.innerText();
  check(!live.includes('Final answer'), `live thread (turn 2 held back):\n${indent(live)}`);
  await shot('agent-live');

  gate.release();
  await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((e) => e.innerText.includes('Final answer: the tide is high.') && e.innerText.includes('success')), THREAD);
  const done = await thread.innerText();
  check(/Turn 1[\s\S]*mcp:everything\/echo[\s\S]*Turn 2[\s\S]*Final answer: the tide is high\./.test(done), `final thread:\n${indent(done)}`);
  await shot('agent-final');
}

const indent = (s) => s.split('\n').filter(Boolean).map((l) => '      ' + l).join('\n');

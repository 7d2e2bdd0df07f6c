import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { getModels } from '@/lib/llm';
import { languageMemoryModel, type MemoryModel, rulesMemoryModel } from '@/lib/memory/memory-model';
import { extractPrompt, reconcilePrompt, rewritePrompt, summarisePrompt } from '@/lib/memory/memory-prompts';
import { closeRules, rules } from '@/lib/memory/rules/bounded';

// The memory work has one interface and two implementations, chosen once in getModels: the call
// sites (rewrite-for-retrieval, extract-facts, refresh-summary) never ask which one they have.

afterAll(() => closeRules());

const now = new Date('2026-05-01T12:00:00Z');
const history = [
  { role: 'user' as const, content: 'I watched Arrival last night.' },
  { role: 'assistant' as const, content: 'Nice, a Villeneuve film.' },
];
const porto = { slot: 'location' as const, text: 'I live in Porto', value: 'porto' };
const lisbon = { id: 'f1', slot: 'location' as const, text: 'I live in Lisbon', value: 'lisbon' };
const messages = [
  { role: 'user' as const, content: 'I live in Porto and work as a nurse.', id: 'm1' },
  { role: 'assistant' as const, content: 'Noted.', id: 'm2' },
];

const systemOf = (call: LanguageModelV4CallOptions) => call.prompt.find((m) => m.role === 'system')?.content;
const userOf = (call: LanguageModelV4CallOptions) =>
  call.prompt.flatMap((m) => (m.role === 'user' ? m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])) : [])).join('');

/** A memory model that answers each operation by its instructions, as a configured LLM would. */
function scriptedModel(answers: Record<string, string>) {
  return new MockLanguageModelV4({
    provider: 'test-provider',
    modelId: 'test-memory',
    doGenerate: async (call) => ({
      content: [{ type: 'text', text: answers[String(systemOf(call))] }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  });
}

function withModel() {
  const model = scriptedModel({
    [rewritePrompt.instructions]: ' When was the film Arrival released? ',
    [extractPrompt.instructions]: JSON.stringify({ facts: [{ ...porto, negated: false, validFrom: '2026-04-01' }] }),
    [reconcilePrompt.instructions]: JSON.stringify({
      decisions: [
        { event: 'UPDATE', factId: 'f1' },
        // Not among the facts it was shown: dropped.
        { event: 'DELETE', factId: 'f9' },
      ],
    }),
    [summarisePrompt.instructions]: '- The user lives in Porto and is a nurse.\n',
  });
  return { model, memory: languageMemoryModel(model) };
}

describe('the memory model, as getModels chooses it', () => {
  const names = ['OPENAI_API_KEY', 'MEMORY_MODEL'] as const;
  const outside = names.map((name) => process.env[name]);
  afterEach(() => {
    for (const [i, name] of names.entries()) {
      if (outside[i] === undefined) delete process.env[name];
      else process.env[name] = outside[i];
    }
    resetConfigForTests();
  });

  it('is the offline rules without a key, recorded as today', () => {
    const { memoryModel } = getModels();
    expect(memoryModel).toBe(rulesMemoryModel);
    expect(memoryModel).toMatchObject({ id: 'offline-rules', factActor: 'offline-rules', summaryActor: 'offline-summariser' });
  });

  it('is the configured model with a key, recorded by its id', () => {
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-test', MEMORY_MODEL: 'gpt-test-mini' });
    resetConfigForTests();
    const { memoryModel } = getModels();
    expect(memoryModel).toMatchObject({
      id: 'openai.chat:gpt-test-mini',
      factActor: 'model:gpt-test-mini',
      summaryActor: 'model:gpt-test-mini',
      extractiveSummaries: false,
    });
    // Chosen once: every caller in this configuration gets the same one.
    expect(getModels().memoryModel).toBe(memoryModel);
  });
});

describe('the configured model', () => {
  it('does all four operations, each with its instructions', async () => {
    const { model, memory } = withModel();
    expect(await memory.rewrite('When was it released?', history, now)).toEqual({
      query: 'When was the film Arrival released?',
      datesResolved: [],
      by: 'model',
    });
    expect(await memory.extract('I live in Porto since last month.', now)).toEqual([{ ...porto, negated: false, validFrom: '2026-04-01' }]);
    expect(await memory.reconcile(porto, [lisbon])).toEqual([{ event: 'UPDATE', factId: 'f1', candidate: porto }]);
    expect(await memory.summarise(null, messages)).toBe('- The user lives in Porto and is a nurse.');

    expect(model.doGenerateCalls.map(systemOf)).toEqual([
      rewritePrompt.instructions,
      extractPrompt.instructions,
      reconcilePrompt.instructions,
      summarisePrompt.instructions,
    ]);
    expect(model.doGenerateCalls.map(userOf)).toEqual([
      rewritePrompt.prompt('When was it released?', history, now),
      extractPrompt.prompt('I live in Porto since last month.', now),
      reconcilePrompt.prompt(porto, [lisbon]),
      summarisePrompt.prompt(null, messages),
    ]);
    expect(model.doGenerateCalls[1].responseFormat).toMatchObject({ type: 'json' });
  });

  it('adds a candidate with no related facts without asking', async () => {
    const { model, memory } = withModel();
    expect(await memory.reconcile(porto, [])).toEqual([{ event: 'ADD', candidate: porto }]);
    expect(model.doGenerateCalls).toEqual([]);
  });

  it('falls back to the rules for the rewrite when the model fails, with the error', async () => {
    const down = new Error('connection refused');
    const memory = languageMemoryModel(
      new MockLanguageModelV4({
        doGenerate: async () => {
          throw down;
        },
      }),
    );
    const { value } = await rules.rewriteOffline('When was it released?', history, now);
    expect(await memory.rewrite('When was it released?', history, now)).toEqual({
      query: value.query,
      datesResolved: value.datesResolved,
      by: 'fallback',
      modelError: down,
    });
  });
});

describe('the offline rules', () => {
  it('do all four operations as the rules in their threads do', async () => {
    const memory: MemoryModel = rulesMemoryModel;
    const rewritten = (await rules.rewriteOffline('When was it released?', history, now)).value;
    expect(await memory.rewrite('When was it released?', history, now)).toEqual({
      query: rewritten.query,
      datesResolved: rewritten.datesResolved,
      by: 'rules',
      gaveUp: false,
    });
    expect(rewritten.query).toContain('Arrival');

    const candidates = await memory.extract('I live in Porto.', now);
    expect(candidates).toEqual(await rules.extractFactCandidates('I live in Porto.', now));
    expect(candidates).toMatchObject([{ slot: 'location', value: 'porto' }]);
    expect(await memory.reconcile(candidates[0], [lisbon])).toEqual(await rules.decideFactUpdate(candidates[0], [lisbon]));

    const summary = await memory.summarise(null, messages);
    expect(summary).toBe((await rules.summariseExtractive(null, messages)).value);
    expect(summary).toContain('Porto');
    expect(memory.extractiveSummaries).toBe(true);
  });
});

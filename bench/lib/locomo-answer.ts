import { generateText } from 'ai';
import { getModels } from '@/lib/llm';
import { previewContext } from '@/lib/memory/preview';
import type { IngestedSample, LocomoSample } from './locomo';
import { progress } from './report';

/**
 * --answer (needs a configured model; not part of CI): answer each question from our assembled
 * context, then grade the answer against the gold one with the model as judge.
 */
export async function answerAndGrade(sample: LocomoSample, ingested: IngestedSample, budget: number, limitQuestions: number) {
  const models = getModels();
  if (models.offline) throw new Error('--answer needs OPENAI_API_KEY (and OPENAI_BASE_URL for a compatible server)');
  const graded = [];
  for (const qa of sample.qa.filter((q) => q.category !== 5).slice(0, limitQuestions)) {
    process.env.CONTEXT_BUDGET = String(budget);
    const state = await previewContext({ userId: ingested.userId, conversationId: ingested.probeConversationId }, qa.question);
    const { text: answer } = await generateText({
      model: models.chat,
      instructions: state.system,
      messages: state.messages,
      maxRetries: 2,
    });
    const { text: verdict } = await generateText({
      model: models.chat,
      prompt: `Question: ${qa.question}\nGold answer: ${String(qa.answer)}\nCandidate answer: ${answer}\nIs the candidate answer correct (same meaning as the gold answer)? Reply with exactly CORRECT or WRONG.`,
      maxRetries: 2,
    });
    graded.push({
      sample: sample.sample_id,
      question: qa.question,
      category: qa.category,
      gold: qa.answer,
      answer,
      correct: /\bCORRECT\b/u.test(verdict),
    });
    progress(`  graded ${graded.length}: ${graded.at(-1)!.correct ? 'correct' : 'wrong'}`);
  }
  delete process.env.CONTEXT_BUDGET;
  return graded;
}

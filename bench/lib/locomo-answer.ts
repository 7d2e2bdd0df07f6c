import { generateText } from 'ai';
import { share } from '@/lib/eval/rates';
import { getModels } from '@/lib/llm';
import { contextText, previewContext } from '@/lib/memory/context/preview';
import type { IngestedSample, LocomoSample } from './locomo';
import { progress } from './report';

/**
 * --answer (not part of CI): the chat model answers each question from our assembled context, and
 * the gold answer's words are looked for in the context and in the answer, as eval:scenarios --reply
 * does. With a configured model, the model also judges each answer against the gold one; the offline
 * model judges nothing (`correct` is null).
 */
export async function answerAndGrade(sample: LocomoSample, ingested: IngestedSample, budget: number, limitQuestions: number) {
  const models = getModels();
  const graded: AnswerRow[] = [];
  for (const qa of sample.qa.filter((q) => q.category !== 5).slice(0, limitQuestions)) {
    process.env.CONTEXT_BUDGET = String(budget);
    const state = await previewContext({ userId: ingested.userId, conversationId: ingested.probeConversationId }, qa.question);
    const { text: answer } = await generateText({
      model: models.chat,
      instructions: state.system,
      messages: state.messages,
      maxRetries: 2,
    });
    const verdict = models.offline
      ? null
      : (
          await generateText({
            model: models.chat,
            prompt: `Question: ${qa.question}\nGold answer: ${String(qa.answer)}\nCandidate answer: ${answer}\nIs the candidate answer correct (same meaning as the gold answer)? Reply with exactly CORRECT or WRONG.`,
            maxRetries: 2,
          })
        ).text;
    const gold = normalised(String(qa.answer));
    graded.push({
      sample: sample.sample_id,
      question: qa.question,
      category: qa.category,
      gold: qa.answer,
      answer,
      goldInContext: normalised(contextText(state)).includes(gold),
      goldInAnswer: normalised(answer).includes(gold),
      correct: verdict === null ? null : /\bCORRECT\b/u.test(verdict),
    });
    const row = graded.at(-1)!;
    progress(
      `  answered ${graded.length}: gold words ${row.goldInAnswer ? 'in' : 'not in'} the answer${row.correct === null ? '' : `, judged ${row.correct ? 'correct' : 'wrong'}`}`,
    );
  }
  delete process.env.CONTEXT_BUDGET;
  return graded;
}

export type AnswerRow = {
  sample: string;
  question: string;
  category: number;
  gold: unknown;
  answer: string;
  /** The gold answer's words, as they are (case and spacing aside), in the assembled context / in the answer. */
  goldInContext: boolean;
  goldInAnswer: boolean;
  /** The configured model's verdict; null for the offline model, which judges nothing. */
  correct: boolean | null;
};

const normalised = (text: string) => text.toLowerCase().replace(/\s+/gu, ' ').trim();

/** Of the questions whose gold answer the context holds word for word, the share whose answer holds it too; and of all, judged correct. */
export function answerRates(rows: AnswerRow[]) {
  const inContext = rows.filter((r) => r.goldInContext);
  const judged = rows.filter((r) => r.correct !== null);
  return {
    questions: rows.length,
    goldInContext: inContext.length,
    goldInAnswerWhenInContext: share(inContext.filter((r) => r.goldInAnswer).length, inContext.length),
    judgedCorrect: share(judged.filter((r) => r.correct).length, judged.length),
  };
}

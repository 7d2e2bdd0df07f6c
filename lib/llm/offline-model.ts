import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { countTokens } from 'gpt-tokenizer';
import { FORGET_DONE, FORGET_NOTHING } from '@/lib/memory/forget-outcome';
import { parseMemoryLine } from '@/lib/memory/memory-line';
import { embedLocally } from './local-embedder';
import { contentFeatures } from './text-features';

export const OFFLINE_MODEL_ID = 'memlens-offline';

/**
 * The built-in offline language model: no network, no weights. It answers from the single most
 * relevant line of the context it is given (memory lines in the system prompt, the user's earlier messages),
 * so the whole app runs end to end without a key.
 */
export function createOfflineModel(options: { chunkDelayMs: number }): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'memlens-offline',
    modelId: OFFLINE_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call) {
      const text = answerFromContext(call.prompt);
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: usageOf(call, text),
        warnings: [],
      };
    },
    async doStream(call) {
      const text = answerFromContext(call.prompt);
      const chunks = text.match(/\S+\s*/gu) ?? [text];
      const signal = call.abortSignal;
      let index = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'response-metadata', modelId: OFFLINE_MODEL_ID });
          controller.enqueue({ type: 'text-start', id: 'offline-text' });
        },
        async pull(controller) {
          if (signal?.aborted) {
            controller.error(signal.reason ?? new DOMException('Aborted', 'AbortError'));
            return;
          }
          if (index < chunks.length) {
            if (options.chunkDelayMs > 0 && index > 0) await sleep(options.chunkDelayMs);
            controller.enqueue({ type: 'text-delta', id: 'offline-text', delta: chunks[index++] });
            return;
          }
          controller.enqueue({ type: 'text-end', id: 'offline-text' });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: undefined },
            usage: usageOf(call, text),
          });
          controller.close();
        },
      });
      return { stream };
    },
  };
}

/** The reply the offline model gives for a prompt: pure, so it is tested directly. */
export function answerFromContext(prompt: LanguageModelV4Prompt): string {
  const messages = prompt.filter((m) => m.role !== 'system');
  const question = [...messages].reverse().find((m) => m.role === 'user');
  const questionText = question ? textOf(question.content) : '';
  const candidates = [
    ...prompt.filter((m) => m.role === 'system').flatMap((m) => memoryCandidates(textOf(m.content))),
    // What the user stated, never its own earlier replies (quoting those would nest echoes of echoes)
    // nor the user's own earlier questions, which answer nothing.
    ...messages
      .filter((m) => m !== question && m.role === 'user')
      .flatMap((m) => linesOf(textOf(m.content)))
      .filter((line) => !looksLikeQuestion(line)),
  ];
  const forgetting = forgetReply(questionText);
  if (forgetting) return forgetting;
  const best = mostRelevantLine(questionText, candidates);
  // No disclaimer: the header's "Offline model" badge says what answered, and only an operator can set a key.
  if (!best) {
    // A statement rather than a question: acknowledge it; memory picks it up after the reply.
    if (!looksLikeQuestion(questionText)) return `Noted: "${clip(questionText, 200)}". Ask me about it later.`;
    return `I don't know yet: nothing you have told me answers "${clip(questionText, 200)}".`;
  }
  return `The closest thing I have is: "${clip(best, 400)}"`;
}

/** After a request to forget, the turn says what memlens did: confirm it in the user's language, naming nothing. */
function forgetReply(question: string): string | undefined {
  const chinese = /\p{Script=Han}/u.test(question);
  if (question.includes(FORGET_DONE)) return chinese ? '好的，已经忘记了。' : 'Done: that is forgotten.';
  if (question.includes(FORGET_NOTHING))
    return chinese
      ? '我的记忆里没有与此相符的内容，所以没有什么需要忘记的。'
      : 'My memory holds nothing matching that, so there is nothing to forget.';
  return undefined;
}

/** The candidate sharing the most content with the question, by word overlap and local embedding. */
export function mostRelevantLine(question: string, candidates: string[]): string | undefined {
  const questionFeatures = new Set(contentFeatures(question));
  const questionVector = embedLocally(question, 256);
  let best: { line: string; score: number } | undefined;
  for (const line of candidates) {
    const features = new Set(contentFeatures(line));
    let shared = 0;
    for (const feature of features) if (questionFeatures.has(feature)) shared++;
    const vector = embedLocally(line, 256);
    const cosine = vector.reduce((sum, value, i) => sum + value * questionVector[i], 0);
    // On a tie, a numbered memory line wins over a raw message: quoting it cites it ([n]).
    const score = shared + cosine + (/^\[\d+\]/u.test(line) ? 0.5 : 0);
    if (shared > 0 && (!best || score > best.score)) best = { line, score };
  }
  return best?.line;
}

const QUESTION_START =
  /^(who|what|when|where|why|how|which|whose|whom|is|are|am|do|does|did|can|could|would|will|should|tell|recommend|suggest|give|explain|describe|show|list|write|summari[sz]e|help|find|compare|translate|please)\b/iu;

function looksLikeQuestion(text: string): boolean {
  const trimmed = text.trim();
  return /[?？吗呢]$/u.test(trimmed) || QUESTION_START.test(trimmed) || /什么|怎么|哪|谁|几|多少/u.test(trimmed);
}

type Content = LanguageModelV4Prompt[number]['content'];

function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  return content.map((part) => ('text' in part && typeof part.text === 'string' ? part.text : '')).join('');
}

/**
 * From the system prompt only the memory items (`[n] "…"`) are answers; the rest is instructions.
 * Each item is read decoded, line by line, every line prefixed with its [n] so quoting it cites it.
 */
function memoryCandidates(system: string): string[] {
  return system.split('\n').flatMap((line) => {
    const item = parseMemoryLine(line);
    return item ? linesOf(item.text).map((text) => `[${item.n}] ${text}`) : [];
  });
}

function linesOf(text: string): string[] {
  return text
    .split(/[\r\n\u0085\u2028\u2029]+/u)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function usageOf(call: LanguageModelV4CallOptions, output: string): LanguageModelV4Usage {
  const input = countTokens(call.prompt.map((m) => textOf(m.content)).join('\n'));
  const outputTokens = countTokens(output);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

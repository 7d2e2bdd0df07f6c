import { createLocalEmbedder } from '@/lib/llm/local-embedder';
import { answerFromContext } from '@/lib/llm/offline-answer';
import { likenessBy } from '@/lib/llm/offline-model';
import { memoryLine, SECTION_HEADERS } from '@/lib/memory/memory-line';

const sim = likenessBy(createLocalEmbedder(1024));
const [facts, eps, q] = JSON.parse(process.argv[2]);
const sys =
  (facts.length ? SECTION_HEADERS.facts + facts.map((l: string, i: number) => memoryLine(i + 1, l)).join('') : '') +
  SECTION_HEADERS.episodes +
  eps.map((l: string, i: number) => memoryLine(facts.length + i + 1, l)).join('');
console.log(
  await answerFromContext(
    [
      { role: 'system', content: sys },
      { role: 'user', content: [{ type: 'text', text: q }] },
    ],
    sim,
  ),
);
process.exit(0);

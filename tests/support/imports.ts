import { GET as getImport } from '@/app/api/import/[id]/route';
import type { ImportView } from '@/lib/import-queue';
import { params, waitFor } from './app';

type Requester = { request: (path: string) => Request };

/** Reads an import through GET /api/import/:id. */
export async function readImport(client: Requester, id: string): Promise<ImportView> {
  const response = await getImport(client.request(`/api/import/${id}`), params({ id }));
  if (response.status !== 200) throw new Error(`GET /api/import/${id}: ${response.status} ${await response.text()}`);
  return (await response.json()).import;
}

/** Polls GET /api/import/:id until the import is done or failed, for at most `timeoutMs`. */
export async function importFinished(client: Requester, id: string, timeoutMs = 60_000): Promise<ImportView> {
  return waitFor(async () => {
    const view = await readImport(client, id);
    return view.status === 'done' || view.status === 'failed' ? view : undefined;
  }, timeoutMs);
}

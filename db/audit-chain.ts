import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb } from './client';
import type { Executor } from './provenance';

/** Where the chain does not hold: an entry whose hash is not its link, or whose kept text is not what its entry hashed. */
type ChainBreak = { id: number; problem: 'entry' | 'text' };
export type ChainCheck = { entries: number; head: string | null; breaks: ChainBreak[] };

/** How many entries are checked a statement: memory stays bounded however long the log is. */
const PAGE = 5000;

/**
 * Recomputes every entry's hash from the one before it (`audit_entry_hash`, the function the insert
 * trigger uses) and every kept payload's hash, in id order, a page at a time. An entry changed,
 * inserted or removed anywhere but at the end breaks the link after it; the head hash, recorded
 * somewhere else, covers the end too. `executor`: a transaction, to check what it sees.
 */
export async function checkAuditChain(executor: Executor = getDb()): Promise<ChainCheck> {
  let after = 0;
  let previous: string | null = null;
  let entries = 0;
  const breaks: ChainBreak[] = [];
  for (;;) {
    const rows = (await executor.execute(sql`
      select a.id::bigint as id, a.hash,
        audit_entry_hash(coalesce(lag(a.hash) over (order by a.id), ${previous}::text), a) = a.hash as linked,
        p.entry_id is null or audit_payload_hash(p.before, p.after) is not distinct from a.payload_hash as text_holds
      from audit_log a
      left join audit_payloads p on p.entry_id = a.id
      where a.id in (select id from audit_log where id > ${after} order by id limit ${PAGE})
      order by a.id`)) as unknown as Array<{ id: string | number; hash: string; linked: boolean; text_holds: boolean }>;
    for (const row of rows) {
      const id = Number(row.id);
      if (!row.linked) breaks.push({ id, problem: 'entry' });
      if (!row.text_holds) breaks.push({ id, problem: 'text' });
    }
    entries += rows.length;
    if (rows.length < PAGE) return { entries, head: rows.at(-1)?.hash ?? previous, breaks };
    after = Number(rows[rows.length - 1].id);
    previous = rows[rows.length - 1].hash;
  }
}

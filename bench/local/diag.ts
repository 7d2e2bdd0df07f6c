import fs from 'node:fs';
import { withDatabase } from '../../scripts/with-database';
import { ingestSample, locomoSchema } from '../lib/locomo';
import { resetConfigForTests } from '@/lib/config';
import { contextText, previewContext } from '@/lib/memory/preview';

const budget = Number(process.env.B ?? 4000);
const mode = (process.env.MODE ?? 'single') as 'single' | 'sessions';
const samples = locomoSchema.parse(JSON.parse(fs.readFileSync('../shared/bench/locomo/locomo-dev.json', 'utf8')));
const out: unknown[] = [];
await withDatabase(async () => {
  for (const sample of samples) {
    const ing = await ingestSample(sample, mode);
    process.env.CONTEXT_BUDGET = String(budget);
    resetConfigForTests();
    for (const qa of sample.qa) {
      if (qa.category === 5) continue;
      const ev = qa.evidence.map((d) => ({ d, t: ing.turns.get(d) })).filter((e) => e.t);
      if (!ev.length) continue;
      const state = await previewContext({ userId: ing.userId, conversationId: ing.probeConversationId }, qa.question);
      const text = contextText(state);
      const byBlock = state.budget!.byBlock;
      const evs = ev.map(({ d, t }) => {
        const present = text.includes(t!.text.trim()) || text.includes(JSON.stringify(t!.text.trim()).slice(1, -1));
        const cands = state.candidates.filter((c) => c.sourceMessageIds.includes(t!.messageId));
        const dec = state.budget!.decisions;
        return {
          d, present, text: t!.text.slice(0, 120),
          cands: cands.map((c) => ({ key: c.key.slice(0, 12), kind: c.kind, rank: c.rank, vr: c.vectorRank, lr: c.lexicalRank, kept: dec.find((x) => x.key === c.key)?.kept, reason: dec.find((x) => x.key === c.key)?.reason })),
        };
      });
      const diaOf = new Map([...ing.turns].map(([d, t]) => [t.messageId, d]));
      const keptDia = [...state.numbered, ...state.keptHistory].flatMap((i) => i.sourceMessageIds.map((m) => diaOf.get(m)));
      const candDia = state.candidates.filter((c) => c.kind === 'episode').map((c) => c.sourceMessageIds.map((m) => diaOf.get(m)).join('+'));
      out.push({ keptDia, candDia, s: sample.sample_id, q: qa.question, cat: qa.category, query: state.retrieval.query, byBlock, total: state.budget!.total,
        nCand: { f: state.candidates.filter((c) => c.kind === 'fact').length, e: state.candidates.filter((c) => c.kind === 'episode').length },
        kept: { f: state.numbered.filter((c) => c.kind === 'fact').length, e: state.numbered.filter((c) => c.kind === 'episode').length, s: state.numbered.filter((c) => c.kind === 'summary').length, h: state.keptHistory.length },
        evs });
    }
  }
});
fs.writeFileSync(process.env.OUT ?? '/tmp/b/diag.json', JSON.stringify(out, null, 1));

import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { FORGET_DONE, FORGET_NOTHING } from '@/lib/memory/forget-outcome';
import { rules } from '@/lib/memory/rules/bounded';
import type { ExistingFact, FactCandidate, FactSlot } from '@/lib/memory/rules/fact-types';
import { namesMemberOf, nounsNamed } from '@/lib/text/kinds';
import { namesHealthWord } from '@/lib/text/rule-words';
import { cjkWords } from '@/lib/text/search-terms';
import { contentFeatures, hasCjk, isCjk, properNames } from '@/lib/text/text-features';
import { type Evidence, memoryEvidence, NO_ANSWER, textOf, windowEvidence } from './offline-evidence';
import { particularsCarried } from './offline-value';

export { NO_ANSWER } from './offline-evidence';

/** How alike a question is to each text, in [-1, 1]: cosine of the embedder's vectors. */
export type Similarity = (question: string, texts: string[]) => Promise<number[]>;

const ACKNOWLEDGED = { en: 'Got it.', zh: '好的，记下了。' };
// Said before evidence the model cannot tell answers (nothing alike enough): the closest the memory holds, not an answer.
const UNSURE = { en: "Nothing you've told me answers that directly, but ", zh: '你没有直接告诉过我这个，不过' };

// What an earlier reply says counts for less than what the user said.
const ASSISTANT_PRIOR = -0.08;
// From this likeness up, evidence is alike in meaning to the question (on the sentence encoder's scale).
const FLOOR = 0.2;
// For a question asking for several things, evidence scoring within this of the best goes with it, up to MAX_MANY pieces.
const LIST_MARGIN = 0.3;
const MAX_MANY = 5;
// What a statement about someone other than the question asks about is set back by.
const OTHER_SUBJECT = 0.3;
// The kinds of fact that record the user's people and pets.
const PEOPLE_SLOTS = new Set(['family', 'pet']);
// The kinds of fact a question about a medicine or a condition asks about.
const HEALTH_SLOTS = ['health', 'allergy'];
// The newest of the user's statements in the window is the likeliest thing a question points at.
const AGE_STEP = 0.01;
// What the first item of a block is worth for the memory having ranked it first (the second half that, and so on).
const RANK_WEIGHT = 0.06;

/**
 * The offline model's reply to a prompt: for a question, the one piece of evidence in its context that
 * answers it, whole and cited [n] (every piece, for a question asking for several things); when nothing
 * in the context is related to the question, one honest sentence and no quote. For a statement, a short
 * acknowledgement.
 */
export async function answerFromContext(prompt: LanguageModelV4Prompt, similarity: Similarity): Promise<string> {
  const messages = prompt.filter((m) => m.role !== 'system');
  const question = [...messages].reverse().find((m) => m.role === 'user');
  const questionText = question ? textOf(question.content).trim() : '';
  const language = languageOf(questionText);
  const forgetting = forgetReply(questionText, language);
  if (forgetting) return forgetting;
  if (!(await rules.asksSomething(questionText))) return acknowledgement(questionText);

  const earlier = messages.filter((m) => m !== question);
  const system = prompt.filter((m) => m.role === 'system').map((m) => textOf(m.content));
  const evidence = fullest(await current([...system.flatMap(memoryEvidence), ...windowEvidence(earlier)]));
  // Asked what happened ("Which cities have I been to?"), a plan answers nothing.
  const happened = await rules.asksWhatHappened(questionText);
  const ranked = (await rank(questionText, earlier, evidence, similarity)).filter((r) => !(happened && r.evidence.slot === 'plan'));
  const value = await valueCheck(questionText, ranked);
  // A statement about someone other than the question asks about never answers it: when only such statements are
  // related, the closest thing the user said of themselves is shown, owned as not an answer.
  const best = ranked.find((r) => r.related && !r.aboutOther) ?? ranked[0];
  if (!best || (!best.related && best.evidence.block === 'window')) return NO_ANSWER[language];
  if (!best.related || best.aboutOther) {
    // Weakly alike, the memory's first pick of what the user stated is still its closest: quoted alone, owned as not an answer.
    // A question asked before, an earlier reply, or a statement about someone the question does not ask about is never that.
    const closest = ranked.find(
      (r) => r.evidence.block !== 'window' && r.evidence.speaker === 'user' && !r.evidence.asked && !r.aboutOther && value.carriedBy(r),
    );
    return closest && !value.toldWithout ? quote(closest.evidence, language, 'closest') : NO_ANSWER[language];
  }
  // The answer is what the best leads to; when that lacks the value asked, the next related evidence that may carry it.
  const quoted = (await rules.asksForMany(questionText))
    ? severalAnswers(best, ranked).filter(value.carriedBy)
    : [theAnswer(questionText, best, ranked), ...ranked.filter((r) => r.related && !r.aboutOther)].filter(value.carriedBy).slice(0, 1);
  if (quoted.length === 0) return NO_ANSWER[language];
  return quoted.map((r, i) => quote(r.evidence, language, i === 0 ? 'first' : 'also')).join(language === 'zh' ? '' : ' ');
}

/** What the offline model replies to a statement: memory picks it up after the reply, so it only says it heard. */
export function acknowledgement(statement: string): string {
  return ACKNOWLEDGED[languageOf(statement)];
}

const languageOf = (text: string) => (hasCjk(text) ? 'zh' : 'en');

/**
 * Other items the user stated that may go with the best one: never its own lines, never a question asked before.
 * The window's statements only with `withWindow`: a list gathers what was said in this conversation too, while the
 * one answer a lead points to is an item of memory.
 */
const otherStatements = (best: Ranked, ranked: Ranked[], { withWindow = false } = {}) =>
  ranked.filter(
    (r) =>
      (withWindow || r.evidence.block !== 'window') &&
      r.evidence.speaker === 'user' &&
      !r.evidence.asked &&
      r.evidence.text !== best.evidence.text &&
      (r.evidence.n === undefined || r.evidence.n !== best.evidence.n),
  );

/**
 * The one piece of evidence that answers, which is the best one unless it only leads to the answer:
 * the exchange right after it when its reply asked something back (the user's answer came next), or the
 * evidence sharing with it a word nothing else holds that says what the question asks and it does not
 * ("my cousin in Tromsø" finds "Rosalind"; Rosalind's new job is the answer).
 */
function theAnswer(question: string, best: Ranked, ranked: Ranked[]): Ranked {
  const others = otherStatements(best, ranked);
  if (best.evidence.asksBack) {
    const next = others.find((r) => r.evidence.block === 'episodes' && r.evidence.n === best.evidence.n! + 1);
    if (next) return next;
  }
  const asked = new Set(contentFeatures(question));
  const says = (r: Ranked) => new Set(contentFeatures(r.evidence.text).filter((f) => asked.has(f)));
  const bestSays = says(best);
  // The answer is about whom the question asks, as the lead is.
  const saysMore = sharingRareWords(question, best, ranked, others).filter(
    (r) => !r.aboutOther && [...says(r)].some((f) => !bestSays.has(f)),
  );
  return saysMore[0] ?? best;
}

/** For a question asking for several things (a list, or two questions in one), each related item scoring near the best, one line per item. */
function severalAnswers(best: Ranked, ranked: Ranked[]): Ranked[] {
  // Where items name members of a kind the question names ("the banjo" for "which instruments"), those are the list,
  // however little else they share with the question. Else scoring near the best is enough: the items of a list are
  // alike to each other more than each is to the question that names their kind.
  const others = otherStatements(best, ranked, { withWindow: true }).filter((r) => !r.aboutOther);
  const near =
    best.member || others.some((r) => r.member)
      ? others.filter((r) => r.member)
      : others.filter((r) => r.score >= best.score - LIST_MARGIN);
  const picked = [best];
  for (const r of near) {
    if (picked.length >= MAX_MANY) break;
    if (!picked.some((p) => p.evidence.text === r.evidence.text || (p.evidence.n !== undefined && p.evidence.n === r.evidence.n)))
      picked.push(r);
  }
  return picked;
}

/** Of `others`, the evidence that shares with the best one a word the question does not have and no other evidence holds. */
function sharingRareWords(question: string, best: Ranked, ranked: Ranked[], others: Ranked[]): Ranked[] {
  const asked = new Set(contentFeatures(question));
  const featuresOf = new Map(ranked.map((r) => [r, new Set(contentFeatures(r.evidence.text))]));
  const holders = new Map<string, number>();
  for (const set of featuresOf.values()) for (const f of set) holders.set(f, (holders.get(f) ?? 0) + 1);
  const rare = [...featuresOf.get(best)!].filter((f) => !asked.has(f) && holders.get(f) === 2);
  return others.filter((r) => rare.some((f) => featuresOf.get(r)!.has(f)));
}

/**
 * Asked for a value of the user's own life (a number, a particular one of a kind), only evidence that carries one
 * answers: "He works at a hospital" tells about it but does not say which, and is not quoted as if it did. A statement
 * of the user's that cannot be told to carry one may; an earlier reply must say it. `toldWithout`: something
 * related to the question lacks the value, so the user spoke of it without saying it, and no other statement is
 * shown as the closest. With no value asked, everything may answer.
 */
async function valueCheck(question: string, ranked: Ranked[]): Promise<ValueCheck> {
  const asked = await rules.valueAsked(question);
  const texts = ranked.map((r) => r.evidence.text);
  const carried =
    asked?.kind === 'number' ? await rules.numbersHeld(texts) : asked ? particularsCarried(question, asked.noun, texts) : null;
  if (!carried) return { carriedBy: () => true, toldWithout: false };
  const of = new Map(ranked.map((r, i) => [r, carried[i]]));
  return {
    carriedBy: (r) => of.get(r) === true || (of.get(r) === null && r.evidence.speaker === 'user'),
    toldWithout: ranked.some((r, i) => r.related && carried[i] === false),
  };
}

/** `carriedBy`: may answer (carries the value asked, or is a statement of the user's that may). */
type ValueCheck = { carriedBy: (r: Ranked) => boolean; toldWithout: boolean };

/** The memory ranked its items in each block, best first: the first of a block is worth a little more. */
function rankPrior(e: Evidence, evidence: Evidence[]): number {
  if (e.n === undefined) return 0;
  const before = new Set(evidence.filter((o) => o.block === e.block && o.n !== undefined && o.n < e.n!).map((o) => o.n));
  return RANK_WEIGHT / (before.size + 1);
}

/** What a question is matched against: the evidence, and for a fact its type as the notes name it ("work", "location"). */
const matchedText = (e: Evidence) => (e.slot ? `${e.text} (${e.slot})` : e.text);

/** `related`: alike in meaning (FLOOR), or sharing a word with the question, or naming what it points at. */
/** `member`: names a member of a kind the question names ("the banjo" for "which instruments"). */
type Ranked = { evidence: Evidence; likeness: number; score: number; related: boolean; member: boolean; aboutOther: boolean };

/** The evidence by how well it answers: its likeness to the question as the offline rewrite reads it, and what kind it is. */
async function rank(question: string, earlier: LanguageModelV4Prompt, evidence: Evidence[], similarity: Similarity): Promise<Ranked[]> {
  if (evidence.length === 0) return [];
  // What "it" or "that film" points at is named, as the retrieval query names it.
  const recent = earlier.flatMap((m) =>
    m.role === 'user' || m.role === 'assistant' ? [{ role: m.role, content: textOf(m.content) }] : [],
  );
  const { query, terms } = (await rules.rewriteOffline(question, recent, new Date())).value;
  // An earlier question that says no more than this one answers nothing ("Where do I live?" asked before).
  const questionWords = new Set(contentFeatures(query));
  evidence = evidence.filter((e) => !e.asked || contentFeatures(e.text).filter((f) => !questionWords.has(f)).length >= 2);
  const likeness = await similarity(query, evidence.map(matchedText));
  // Evidence naming what the question points at is about it, however little else it shares.
  const says = (e: Evidence, words: string[]) => words.some((word) => e.text.toLowerCase().includes(word));
  // A term may be a whole sentence of the window, its full stop and all.
  const pointedAt = terms.map((term) => term.toLowerCase().replace(/(?<![\p{P}\s])[\p{P}\s]+$/u, '')).filter(Boolean);
  const names = (e: Evidence) => says(e, pointedAt);
  // A name the question says ("What does Obi do for work?"): where some evidence says it, what does not is about something else.
  const namesAsked = properNames(question);
  const elsewhere = evidence.some((e) => says(e, namesAsked)) ? (e: Evidence) => !says(e, namesAsked) : () => false;
  // A single Chinese character is shared only where the segmenter cuts it as a word of one text at least: 猫 in 我的猫
  // and 猫叫什么, 考 in 考个证, but not 工 in 工资 (pay) and 工作 (work).
  const questionCjkWords = new Set(cjkWords(query));
  const sharesWord = (e: Evidence) => {
    const evidenceCjkWords = new Set(cjkWords(e.text));
    const aWord = (f: string) => f.length > 1 || !isCjk(f) || questionCjkWords.has(f) || evidenceCjkWords.has(f);
    return contentFeatures(e.text).some((f) => questionWords.has(f) && aWord(f));
  };
  // Asked about the user, a statement about someone else answers less; asked about someone else, one about the user does.
  const [asked, ...about] = await rules.subjectsOf([question, ...evidence.map((e) => e.text)]);
  // The kind of fact the question names ("what do I do for a living": work; "怎么称呼我": a name). Asked about
  // someone else ("Where does my sister live?"), the kinds that record the user's people are asked, not the user's own.
  const asksAbout = new Set<string>(asked === 'other' ? PEOPLE_SLOTS : await rules.slotsNamed(question));
  // Naming a medicine or a condition ("Can I take ibuprofen for my knee?"), a question asks what the user's health allows.
  if (asked !== 'other' && namesHealthWord(query)) for (const slot of HEALTH_SLOTS) asksAbout.add(slot);
  const ofKindAsked = (e: Evidence) => e.slot !== undefined && asksAbout.has(e.slot);
  // Naming a member of a kind the question names ("the banjo" for "which instruments", 西安 for 哪些城市), evidence is about it.
  const kindsAsked = nounsNamed(query);
  const namesMember = (e: Evidence) => namesMemberOf(e.text, kindsAsked);
  const aboutOther = (i: number) => asked !== 'unsaid' && about[i] !== 'unsaid' && about[i] !== asked;
  return evidence
    .map((e, i) => {
      // A question asked before answers only by the words it shares ("Since I'm giving the toast in Porto, …?" for "where is the toast?"), never by likeness alone.
      const member = !e.asked && namesMember(e);
      const related = names(e) || sharesWord(e) || member || (!e.asked && (likeness[i] >= FLOOR || ofKindAsked(e)));
      // Named or of the kind asked, evidence is taken as alike as the floor, however little it shares.
      const alike = names(e) || ofKindAsked(e) ? Math.max(likeness[i], FLOOR) : likeness[i];
      // Naming what the question points at ("他" for the director the user likes), evidence is about it, whoever says it.
      const other = (aboutOther(i) && !names(e)) || elsewhere(e);
      // What kind of evidence it is counts only for evidence related to the question: an unrelated fact is no better than an unrelated exchange.
      const worth = related ? e.prior + rankPrior(e, evidence) : 0;
      return {
        evidence: e,
        likeness: likeness[i],
        related,
        member,
        aboutOther: other,
        score: alike + worth + (e.speaker === 'assistant' ? ASSISTANT_PRIOR : 0) - AGE_STEP * e.age - (other ? OTHER_SUBJECT : 0),
      };
    })
    .sort((a, b) => b.score - a.score);
}

/**
 * Evidence whose words another holds all of ("My daughter" noted, "My daughter got the part of Wendy"
 * said) is that other's: the fuller one stands in for both, worth the more of the two, cited by the item's [n].
 */
function fullest(evidence: Evidence[]): Evidence[] {
  const features = evidence.map((e) => new Set(contentFeatures(e.text)));
  const holds = (b: number, a: number) => [...features[a]].every((f) => features[b].has(f));
  const kept = evidence.map((e) => ({ ...e }));
  return kept.filter((e, a) => {
    // Holding all of A's words, B says more, or the same and is worth more (or comes first).
    const fuller = kept.findIndex(
      (o, b) => b !== a && holds(b, a) && (features[b].size > features[a].size || o.prior > e.prior || (o.prior === e.prior && b < a)),
    );
    if (fuller < 0) return true;
    kept[fuller].prior = Math.max(kept[fuller].prior, e.prior);
    // Quoting the fuller words cites the memory item they hold ("My name is Ada and I live in Lisbon" cites [1] "I live in Lisbon").
    kept[fuller].n ??= e.n;
    return false;
  });
}

/**
 * As the system prompt says, a fact is current and overrides older statements: a statement of the user's
 * that the context's facts outdate is no longer evidence. Outdated is what reconciliation says when the
 * memory learns (fact-reconcile.ts): a statement about the same thing as a current fact that says
 * something else ("I live in Bristol" beside "moved … to Bath"; a plan to Denver by car beside the one
 * by plane). A fact whose kind the rules read nothing of is compared whole: one that holds the statement's
 * value says it still. So is a statement that one of the user's later (or same day's) statements ends
 * ("I quit the bank", 我辞职了), unless a current fact says it again.
 */
async function current(evidence: Evidence[]): Promise<Evidence[]> {
  const now = new Date();
  const read = evidence.filter((e) => e.block === 'facts' || e.speaker === 'user');
  const candidates = await Promise.all(read.map((e) => rules.extractFactCandidates(e.text, now)));
  const toldBy = new Map(read.map((e, i) => [e, candidates[i]]));
  // The facts as reconciliation reads them: what each one tells, or its text under its kind.
  const facts: ExistingFact[] = evidence
    .filter((e) => e.block === 'facts')
    .flatMap((e, i) => {
      const told = toldBy.get(e)!.filter((c) => !c.negated);
      const kinds = told.length || !e.slot ? told : [{ slot: e.slot as FactSlot, value: e.text.toLowerCase() }];
      return kinds.map((c) => ({ id: `${i}:${c.slot}:${c.value}`, slot: c.slot, value: c.value, text: e.text }));
    });
  const endings = read.flatMap((e) =>
    e.block === 'facts'
      ? []
      : toldBy
          .get(e)!
          .filter((c) => c.negated)
          .map((ending) => ({ e, ending })),
  );
  const events = async (said: FactCandidate, known: ExistingFact[]) => (await rules.decideFactUpdate(said, known)).map((d) => d.event);
  const endedLater = async (e: Evidence, said: FactCandidate) => {
    const later = endings.filter((end) => end.e !== e && notOlder(end.e, e));
    const asFact = [{ id: 'said', slot: said.slot, value: said.value, text: e.text }];
    return (await Promise.all(later.map((end) => events(end.ending, asFact)))).some((ends) => ends.includes('DELETE'));
  };
  const outdated = async (e: Evidence, said: FactCandidate) => {
    if (said.negated) return false;
    const byFacts = await events(said, facts);
    if (byFacts.includes('UPDATE') || byFacts.includes('DELETE')) return true;
    // A current fact that says it again keeps it, whatever ended it before.
    return !byFacts.includes('NONE') && (await endedLater(e, said));
  };
  const kept = await Promise.all(
    evidence.map(async (e) => {
      if (e.block === 'facts' || e.speaker !== 'user') return e;
      const told = toldBy.get(e)!;
      if ((await Promise.all(told.map((said) => outdated(e, said)))).some(Boolean)) return null;
      // A statement that tells a kind of fact is of that kind, as a fact would be ("you can call me Jay": a name).
      return told[0] && !e.slot ? { ...e, slot: told[0].slot } : e;
    }),
  );
  return kept.filter((e) => e !== null);
}

/** Whether `a` was said no earlier than `b`: the window after memory, in the window by age, in memory by date. */
function notOlder(a: Evidence, b: Evidence): boolean {
  if ((a.block === 'window') !== (b.block === 'window')) return a.block === 'window';
  if (a.block === 'window') return a.age <= b.age;
  return (a.date ?? '') >= (b.date ?? '');
}

/** The evidence in its own words, whole, with when it was said (or since when a fact holds) and its [n]; `closest` owns it answers nothing directly. */
function quote(evidence: Evidence, language: 'en' | 'zh', as: 'first' | 'closest' | 'also'): string {
  const cite = evidence.n === undefined ? '' : ` [${evidence.n}]`;
  const user = evidence.speaker === 'user';
  if (language === 'zh') {
    const lead = { first: '', closest: UNSURE.zh, also: '另外' }[as];
    const when = evidence.date ? `在${evidence.date}` : '';
    const since = evidence.since ? `（自${evidence.since}起）` : '';
    return `${lead}${user ? '你' : '我'}${when}${evidence.asked ? '问过' : '说过'}：“${evidence.text}”${since}${cite}。`;
  }
  const who = evidence.asked ? 'you asked' : user ? 'you told me' : 'I said';
  const said = evidence.date ? `on ${evidence.date} ${who}` : who;
  const lead = { first: said.charAt(0).toUpperCase() + said.slice(1), closest: UNSURE.en + said, also: `Also, ${said}` }[as];
  const since = evidence.since ? ` (since ${evidence.since})` : '';
  return `${lead}: "${evidence.text}"${since}${cite}.`;
}

/** After a request to forget, the turn says what memlens did: confirm it in the user's language, naming nothing. */
function forgetReply(question: string, language: 'en' | 'zh'): string | undefined {
  if (question.includes(FORGET_DONE)) return language === 'zh' ? '好的，已经忘记了。' : 'Done: that is forgotten.';
  if (question.includes(FORGET_NOTHING))
    return language === 'zh'
      ? '我的记忆里没有与此相符的内容，所以没有什么需要忘记的。'
      : 'My memory holds nothing matching that, so there is nothing to forget.';
  return undefined;
}

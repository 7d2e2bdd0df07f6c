import { describe, expect, it } from 'vitest';
import { cosine, embedLocally } from '@/lib/llm/local-embedder';
import { chineseBridgeWords, englishBridgeWords, MAX_BRIDGE_TERMS } from '@/lib/text/bilingual';
import { indexTerms } from '@/lib/text/index-terms';
import { cjkTerms, cjkWords, segmentWords } from '@/lib/text/search-terms';

describe('segmentation by dictionary', () => {
  it('cuts Chinese into dictionary words, with where each starts in the text', () => {
    expect(cjkWords('我对芒果过敏')).toEqual(['我', '对', '芒果', '过敏']);
    const text = 'I moved to 杭州 in 2019年';
    const segments = segmentWords(text);
    expect(segments.map((s) => s.text)).toEqual(['I', 'moved', 'to', '杭州', 'in', '2019', '年']);
    for (const segment of segments) expect(text.slice(segment.index, segment.index + segment.text.length)).toBe(segment.text);
  });

  it('leaves kana and Hangul to the ICU segmenter, which keeps their words whole', () => {
    expect(segmentWords('안녕하세요 친구').map((s) => s.text)).toEqual(['안녕하세요', '친구']);
    expect(segmentWords('こんにちは世界').map((s) => s.text)).toEqual(['こんにちは', '世界']);
  });

  it('indexes the words and every bigram, so a word the dictionary cut otherwise still meets', () => {
    expect(cjkTerms('我住在北京市')).toEqual(expect.arrayContaining(['北京市', '北京', '京市']));
  });
});

describe('the bilingual bridge (CC-CEDICT)', () => {
  it("gives a Chinese statement's content words their English head words", () => {
    const english = englishBridgeWords('我对芒果过敏');
    expect(english).toEqual(expect.arrayContaining(['mango', 'allergic', 'allergy']));
    // Function words (我, 对) bring nothing.
    expect(english).not.toContain('i');
  });

  it("gives an English statement's content words their most frequent Chinese words, and its function words none", () => {
    const chinese = chineseBridgeWords("i'm allergic to shellfish");
    expect(chinese).toEqual(expect.arrayContaining(['过敏', '贝类']));
    expect(chineseBridgeWords('i am in it to the of')).toEqual([]);
  });

  it('reads an inflected English word by its stem', () => {
    expect(chineseBridgeWords('two nephews')).toContain('侄子');
  });

  it('indexes a text under its own terms and the bridge, lower-cased and each once', () => {
    const terms = indexTerms('Mango 过敏');
    expect(terms).toEqual(expect.arrayContaining(['过敏', '芒果', 'allergic']));
    expect(new Set(terms).size).toBe(terms.length);
  });

  it('bounds the bridge of a long text, and reads it in time linear in its length', () => {
    const long = '我在杭州的茶馆里喝龙井茶，看书，写信。'.repeat(5000);
    const started = performance.now();
    expect(englishBridgeWords(long).length).toBeLessThanOrEqual(MAX_BRIDGE_TERMS);
    expect(chineseBridgeWords('teahouse letter book tea river mountain '.repeat(5000)).length).toBeLessThanOrEqual(MAX_BRIDGE_TERMS);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("brings the local embedder's vectors of a statement and a question in the other language together", () => {
    const near = (a: string, b: string) => cosine(embedLocally(a, 512), embedLocally(b, 512));
    expect(near('我对芒果过敏', 'mango allergy')).toBeGreaterThan(0.3);
    expect(near("I'm allergic to shellfish", '我对什么过敏？')).toBeGreaterThan(0.15);
    expect(near('My brother plays the violin', '我对什么过敏？')).toBeLessThan(0.1);
  });
});

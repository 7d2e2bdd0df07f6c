import { describe, expect, it } from 'vitest';
import { forgetRequestObject } from '@/lib/memory/rules/forget';

// The part of a request to forget that names the thing: marked forgotten, so the model never reads it.
describe('forgetRequestObject', () => {
  it.each([
    ['Could you please forget that I love bluegrass music?', 'that I love bluegrass music'],
    ['Ok, so forget that my sister’s name is Mira!', 'that my sister’s name is Mira'],
    ['Please delete my address, 4 Rue des Lilas.', 'my address, 4 Rue des Lilas'],
    ['  forget about my ex  ', 'about my ex'],
    ['请忘掉我喜欢打羽毛球这件事。', '我喜欢打羽毛球这件事'],
    ['把我女儿的名字忘掉吧', '我女儿的名字'],
    ['嗯，请删除我的工作单位', '我的工作单位'],
  ])('%s → %s', (text, named) => {
    const span = forgetRequestObject(text);
    expect(span && text.slice(span.start, span.end)).toBe(named);
  });

  it.each(['How do I forget a Wi-Fi network on my phone?', 'What is my address?', '我喜欢打羽毛球。'])(
    '%s names nothing to forget',
    (text) => {
      expect(forgetRequestObject(text)).toBeNull();
    },
  );
});

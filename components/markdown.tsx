'use client';

import { memo, useMemo } from 'react';
import ReactMarkdown, { type Components, defaultUrlTransform, type UrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { splitInvisible } from '@/lib/shared/invisible-chars';
import { INVISIBLE_TOKEN_CLASS } from './visible-text';

const components: Components = {
  // Links in replies open in a new tab and never leak the referrer.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
};

const plugins = [remarkGfm];
const citingPlugins = [remarkGfm, remarkCitations];
const htmlPlugins = [rehypeExternalImages];
const revealingPlugins = [rehypeExternalImages, rehypeInvisibleChars];

/** Opens the cited item of a reply's context: the reply's id and the number it cited. */
export type OnCite = (messageId: string, n: number) => void;

/**
 * Renders message text as GitHub-flavoured markdown. Raw HTML is not rendered, and images load only
 * from data URLs: any other image is a link to open by hand. With `onCite`, each `[n]` of the text
 * (outside code and links) is a button that shows the cited item. With `showInvisible` (the staff
 * console), invisible characters are shown as marked tokens, as VisibleText shows them.
 */
export const Markdown = memo(function Markdown({
  text,
  messageId,
  onCite,
  showInvisible = false,
}: {
  text: string;
  messageId?: string;
  onCite?: OnCite;
  showInvisible?: boolean;
}) {
  const citing = Boolean(onCite && messageId);
  const withCitations = useMemo<Components>(
    () => ({
      a: ({ node, href, children, ...props }) => {
        const n = Number(node?.properties?.dataCite);
        if (Number.isInteger(n) && n > 0 && onCite && messageId) {
          return (
            <button
              type="button"
              data-testid="cite-link"
              data-n={n}
              onClick={() => onCite(messageId, n)}
              className="inline rounded px-0.5 align-baseline font-mono text-[0.8em] font-medium text-accent ring-accent/60 transition-colors hover:bg-accent-soft data-[flash=true]:bg-accent-soft data-[flash=true]:ring-2"
              title={`Show memory item [${n}] in the inspector`}
              aria-label={`Source ${n}: show it in the inspector`}
            >
              {children}
            </button>
          );
        }
        return (
          <a {...props} href={href} target="_blank" rel="noopener noreferrer">
            {children}
          </a>
        );
      },
    }),
    [onCite, messageId],
  );
  return (
    <div className="markdown">
      <ReactMarkdown
        remarkPlugins={citing ? citingPlugins : plugins}
        rehypePlugins={showInvisible ? revealingPlugins : htmlPlugins}
        urlTransform={keepInlineImages}
        components={citing ? withCitations : components}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
});

// ---- [n] citations as links

type MdNode = { type: string; value?: string; url?: string; children?: MdNode[]; data?: Record<string, unknown> };

const CITATION = /\[(\d{1,3})\]/gu;

/**
 * A remark plugin: splits text nodes at `[n]` into text and link nodes marked `data-cite`. Code
 * is never a text node, and text inside a link stays as it is.
 */
function remarkCitations() {
  return (tree: MdNode) => {
    visit(tree);
  };
}

function visit(node: MdNode) {
  if (!node.children || node.type === 'link' || node.type === 'linkReference') return;
  const children: MdNode[] = [];
  for (const child of node.children) {
    if (child.type === 'text' && child.value && /\[\d{1,3}\]/u.test(child.value)) children.push(...splitCitations(child.value));
    else {
      visit(child);
      children.push(child);
    }
  }
  node.children = children;
}

function splitCitations(value: string): MdNode[] {
  const out: MdNode[] = [];
  let at = 0;
  for (const match of value.matchAll(CITATION)) {
    const start = match.index ?? 0;
    if (start > at) out.push({ type: 'text', value: value.slice(at, start) });
    out.push({
      type: 'link',
      url: `#cite-${match[1]}`,
      children: [{ type: 'text', value: match[0] }],
      data: { hProperties: { dataCite: match[1] } },
    });
    at = start + match[0].length;
  }
  if (at < value.length) out.push({ type: 'text', value: value.slice(at) });
  return out;
}

// ---- images: only inline ones load

/**
 * Images that render: data URLs of raster images. Loading an image from any other address (even
 * this site's) would make the browser request it as soon as the reply is shown, and a reply (or
 * memory a reply quotes) can put anything in that address: data would leave through the URL.
 */
const INLINE_IMAGE = /^data:image\/(?:png|gif|jpeg|webp|avif);base64,/iu;

/** react-markdown's own sanitising, which would blank every data URL, except for inline images. */
const keepInlineImages: UrlTransform = (url, key, node) =>
  node.tagName === 'img' && key === 'src' && INLINE_IMAGE.test(url) ? url : defaultUrlTransform(url);

type HastNode = { type: string; tagName?: string; value?: string; properties?: Record<string, unknown>; children?: HastNode[] };

/** A rehype plugin: every image that is not inline becomes a link to it (plain text inside a link). */
function rehypeExternalImages() {
  return (tree: HastNode) => {
    replaceImages(tree, false);
  };
}

function replaceImages(node: HastNode, inLink: boolean) {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    if (child.type !== 'element') return child;
    if (child.tagName === 'img' && !INLINE_IMAGE.test(String(child.properties?.src ?? ''))) return notLoaded(child, inLink);
    replaceImages(child, inLink || child.tagName === 'a');
    return child;
  });
}

function notLoaded(image: HastNode, inLink: boolean): HastNode {
  const src = String(image.properties?.src ?? '');
  const alt = String(image.properties?.alt ?? '').trim() || 'image';
  const host = hostOf(src);
  const properties = { dataExternalImage: host, title: `Image not loaded automatically: ${src}` };
  const children = [{ type: 'text', value: `Image not loaded: ${alt} (${host})` }];
  // A link cannot hold a link: inside one the image is only named.
  return inLink
    ? { type: 'element', tagName: 'span', properties, children }
    : { type: 'element', tagName: 'a', properties: { ...properties, href: src }, children };
}

/** Where an image would come from, for its label: relative addresses (but not `//host/…`) are this site. */
function hostOf(src: string): string {
  const placeholder = 'https://this-site.invalid';
  if (!URL.canParse(src, placeholder)) return 'an invalid address';
  const url = new URL(src, placeholder);
  if (url.origin === placeholder) return 'this site';
  return url.host || url.protocol;
}

// ---- invisible characters as tokens

/** A rehype plugin: each invisible character of the text (lib/shared/invisible-chars.ts) becomes a marked token. */
function rehypeInvisibleChars() {
  return (tree: HastNode) => {
    revealInvisible(tree);
  };
}

function revealInvisible(node: HastNode) {
  if (!node.children) return;
  node.children = node.children.flatMap((child): HastNode[] => {
    if (child.type !== 'text') {
      revealInvisible(child);
      return [child];
    }
    return splitInvisible(child.value ?? '').map((piece) =>
      piece.kind === 'text'
        ? { type: 'text', value: piece.text }
        : {
            type: 'element',
            tagName: 'span',
            properties: { dataTestid: 'invisible-char', title: piece.title, className: INVISIBLE_TOKEN_CLASS },
            children: [{ type: 'text', value: piece.label }],
          },
    );
  });
}

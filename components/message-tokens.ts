'use client';

import { useEffect, useState } from 'react';
import type { ModelInfo } from './types';

type Counter = (text: string) => number;

/** Each encoding's counter, loaded the first time a message could need it (the tables are large). */
const counters = new Map<ModelInfo['encoding'], Promise<Counter>>();

function counterFor(encoding: ModelInfo['encoding']): Promise<Counter> {
  let counter = counters.get(encoding);
  if (!counter) {
    counter = (
      encoding === 'cl100k_base' ? import('gpt-tokenizer/encoding/cl100k_base') : import('gpt-tokenizer/encoding/o200k_base')
    ).then((module) => module.countTokens);
    counters.set(encoding, counter);
  }
  return counter;
}

const utf8 = new TextEncoder();

/**
 * A message's tokens, counted with the tokenizer the server counts it with, so the composer's limit
 * is the server's. A token is at least one byte of UTF-8 (and a UTF-16 unit at most three): a
 * message of no more bytes than the limit cannot be over it, and is not counted (null). Counted a moment after typing stops; until then the
 * last count stands.
 */
export function useMessageTokens(text: string, model: Pick<ModelInfo, 'maxMessageTokens' | 'encoding'>): number | null {
  const mayBeOver = text.length > model.maxMessageTokens / 3 && utf8.encode(text).length > model.maxMessageTokens;
  const [counted, setCounted] = useState<number | null>(null);
  useEffect(() => {
    if (!mayBeOver) return;
    let current = true;
    const timer = setTimeout(() => {
      void counterFor(model.encoding).then((count) => {
        if (current) setCounted(count(text));
      });
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, mayBeOver, model.encoding]);
  return mayBeOver ? counted : null;
}

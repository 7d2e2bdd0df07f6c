import { describe, expect, it } from 'vitest';
import { tooLong, validateMessage } from '@/components/types';

// The composer's limits are the server's: characters, and the model's tokens once counted.
const model = { maxMessageChars: 100, maxMessageTokens: 20 };

describe('a message against the limits', () => {
  it('is fine within both', () => {
    expect(tooLong('short words', model, null)).toBeNull();
    expect(tooLong('short words', model, 20)).toBeNull();
  });

  it('is over by characters, whatever its tokens', () => {
    expect(tooLong('x'.repeat(101), model, null)).toMatch(/101 characters, the limit is 100\. Remove 1 character\./u);
  });

  it('is over by tokens under the character limit, and says by how many', () => {
    expect(tooLong('x'.repeat(50), model, 23)).toMatch(/23 tokens, the limit is 20\. Shorten it by about 3 tokens/u);
  });

  it('asks for a message when there is none', () => {
    expect(validateMessage('   ', model, null)).toBe('Write a message first.');
  });
});

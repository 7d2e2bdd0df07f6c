import type { Json } from '../json';
import { plural } from '../ui/format';

type Usage = Json<{ count: number; sent: number }>;

/** How many replies were written with a memory item in their context: the plain count, with what it means on hover. */
export function SentWith({ usage, testId }: { usage: Usage; testId: string }) {
  return (
    <span data-testid={testId} title="Replies memlens wrote with this in what it remembered, cited or not">
      {usage.sent === 0 ? 'Not sent with a reply yet' : `Sent with ${plural(usage.sent, 'reply', 'replies')}`}
    </span>
  );
}

/** "cited in 2 replies" / "never cited". */
export const citedIn = (usage: Usage) => (usage.count === 0 ? 'never cited' : `cited in ${plural(usage.count, 'reply', 'replies')}`);

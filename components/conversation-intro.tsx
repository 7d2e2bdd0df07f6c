const suggestions = [
  'My name is Ada and I work on compilers. What should I read next?',
  'Summarise the main idea of spaced repetition in three bullet points.',
  'I am planning a trip to Lisbon in May. What should I pack?',
];

/** An empty conversation: what to do, and a few questions to start with. */
export function ConversationIntro({ onPick }: { onPick: (text: string) => void }) {
  return (
    <div className="mx-auto mt-[8vh] max-w-lg text-center">
      <h2 className="text-xl font-semibold tracking-tight">What is on your mind?</h2>
      <p className="mt-2 text-sm leading-6 text-muted">
        Ask anything. Every message is saved, and you can edit a question later to take the conversation another way.
      </p>
      <ul className="mt-6 grid gap-2 text-left">
        {suggestions.map((text) => (
          <li key={text}>
            <button
              type="button"
              onClick={() => onPick(text)}
              className="w-full rounded-xl border border-line bg-surface px-4 py-3 text-sm text-muted hover:border-accent/40 hover:text-fg"
            >
              {text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

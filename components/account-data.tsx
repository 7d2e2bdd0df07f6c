'use client';

import { useEffect, useState } from 'react';
import { DialogFrame } from './confirm-dialog';
import { fetchOrThrow } from './http';
import { useSignOut } from './session-end';
import { plural } from './ui/format';

/** What deleting the account removes, counted on the server when the page was drawn. */
export type AccountContents = { conversations: number; messages: number; facts: number; episodes: number; summaries: number };

/** The word typed to confirm: a deletion this large should not go on one click. */
const CONFIRM_WORD = 'delete';

const card = 'w-full max-w-sm space-y-3 rounded-2xl border border-line bg-surface p-6 text-sm shadow-sm';
const button = 'rounded-lg px-3 py-2 text-sm font-medium';

/** "Your data": download everything as JSON, or delete the account and everything in it. */
export function AccountData({ guest, contents }: { guest: boolean; contents: AccountContents }) {
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = guest ? 'everything this browser keeps' : 'your account';
  useEffect(() => {
    // Marks the page interactive (end-to-end tests wait for it before clicking).
    document.body.dataset.hydrated = 'true';
  }, []);

  async function deleteEverything() {
    setBusy(true);
    setError(null);
    try {
      await fetchOrThrow('/api/me', { method: 'DELETE' });
    } catch (failure) {
      setBusy(false);
      setError(failure instanceof Error ? failure.message : 'Could not delete the account.');
      return;
    }
    // The session went with the account; signing out clears the browser's cookie too.
    await signOut('/');
  }

  return (
    <section data-testid="account-data" className={card}>
      <h2 className="text-lg font-semibold">Your data</h2>
      <p className="text-muted">
        {guest
          ? 'Download your chats and memory, or delete them from memlens for good.'
          : 'Download everything memlens keeps about you, or delete your account for good.'}
      </p>
      <a
        href="/api/me/export"
        download
        data-testid="export-data"
        className={`${button} block bg-subtle text-center text-fg hover:bg-line`}
        title="Conversations with their messages and summaries, facts with their history, remembered exchanges and turn records, as one JSON file"
      >
        Export my data (JSON)
      </a>
      <button
        type="button"
        data-testid="delete-account"
        onClick={() => {
          setTyped('');
          setError(null);
          setOpen(true);
        }}
        className={`${button} w-full border border-danger text-danger hover:bg-danger-soft`}
      >
        {guest ? 'Delete everything' : 'Delete my account'}
      </button>
      <DialogFrame
        open={open}
        wide
        testId="delete-account-dialog"
        title={guest ? 'Delete everything from this browser?' : 'Delete your account?'}
        description={
          <>
            This deletes {what} and, with it, {plural(contents.conversations, 'conversation')} ({plural(contents.messages, 'message')}),{' '}
            {plural(contents.facts, 'fact')} with {contents.facts === 1 ? 'its' : 'their'} history,{' '}
            {plural(contents.episodes, 'remembered exchange')}, {plural(contents.summaries, 'summary', 'summaries')} and the record of every
            reply.
            {guest ? '' : ' You can no longer sign in with this email.'} It cannot be undone.
          </>
        }
        confirmLabel={guest ? 'Delete everything' : 'Delete my account'}
        confirmClassName="rounded-lg bg-danger px-3.5 py-2 text-sm font-medium text-white hover:opacity-90 disabled:opacity-60 dark:text-canvas"
        confirmDisabled={typed.trim().toLowerCase() !== CONFIRM_WORD}
        busy={busy}
        error={error}
        onConfirm={() => void deleteEverything()}
        onCancel={() => setOpen(false)}
      >
        <label className="mt-3 block text-sm">
          <span className="block">
            Type <b>{CONFIRM_WORD}</b> to confirm
          </span>
          <input
            data-testid="delete-account-word"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            className="mt-1 w-full rounded-lg border border-line bg-canvas px-3 py-2"
          />
        </label>
      </DialogFrame>
    </section>
  );
}

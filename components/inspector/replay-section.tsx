'use client';

import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { onMemoryChanged } from '../api';
import type { ReplayOptions, TurnRecord } from '../api-types';
import { Notice } from '../ui/badge';
import { Skeleton } from '../ui/loading';
import { Section } from '../ui/section';
import { useEndpoints } from './endpoints';
import { digest, ReplayDiff } from './replay-diff';
import { EMPTY_FORM, type Form, NumberInput, optionsOf, ScopeSelect } from './replay-form';

/**
 * Replay: this reply's context assembled again without calling the model, with today's memory and
 * optionally other settings, and what changed against what was actually sent.
 */
export function ReplaySection({ record }: { record: TurnRecord }) {
  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const [stale, setStale] = useState(false);
  const endpoints = useEndpoints();
  const replay = useMutation({
    mutationFn: (options: ReplayOptions) => endpoints.replay(record.assistantMessageId, options),
    onSuccess: () => setStale(false),
  });
  // A correction after the replay makes its result out of date: say so instead of showing it as current.
  useEffect(() => onMemoryChanged(() => setStale(true)), []);
  const streaming = record.status === 'streaming';
  const result = replay.data;

  return (
    <Section
      testId="replay-section"
      title="Replay"
      meta={result ? digest(result.diff) : 'assemble again, without the model'}
      defaultOpen={false}
    >
      <p className="text-xs leading-5 text-muted">
        Assembles this reply&apos;s context again from today&apos;s memory, at the time it was asked, with the same question and the
        messages before it, and compares it with what was sent. The chat model is not called and nothing is saved.
      </p>
      <form
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          replay.mutate(optionsOf(form));
        }}
      >
        <fieldset className="grid grid-cols-2 gap-x-3 gap-y-2" disabled={replay.isPending}>
          <legend className="sr-only">Settings for the replay (empty: as configured)</legend>
          <NumberInput
            label="Budget"
            unit="tokens"
            testId="replay-budget"
            value={form.budget}
            placeholder={String(record.budget?.budget ?? '')}
            min={1}
            max={2_000_000}
            onChange={(budget) => setForm({ ...form, budget })}
          />
          <NumberInput
            label="Window"
            unit="messages"
            testId="replay-window"
            value={form.window}
            placeholder={result?.options.window != null ? String(result.options.window) : 'default'}
            min={0}
            max={1000}
            onChange={(window) => setForm({ ...form, window })}
          />
          <NumberInput
            label="Facts top k"
            testId="replay-facts-top-k"
            value={form.factsTopK}
            placeholder="auto"
            min={0}
            max={200}
            onChange={(factsTopK) => setForm({ ...form, factsTopK })}
          />
          <NumberInput
            label="Episodes top k"
            testId="replay-episodes-top-k"
            value={form.episodesTopK}
            placeholder="auto"
            min={0}
            max={200}
            onChange={(episodesTopK) => setForm({ ...form, episodesTopK })}
          />
          <ScopeSelect value={form.episodeScope} onChange={(episodeScope) => setForm({ ...form, episodeScope })} />
        </fieldset>
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <button
            type="submit"
            data-testid="replay-run"
            disabled={replay.isPending || streaming}
            className="rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-on-accent hover:bg-accent-hover disabled:cursor-not-allowed disabled:opacity-50"
          >
            {replay.isPending ? 'Replaying…' : "Replay with today's memory"}
          </button>
          <button
            type="button"
            data-testid="replay-stored"
            disabled={replay.isPending || streaming}
            onClick={() => replay.mutate({ mode: 'stored' })}
            title="The context exactly as it was stored for this reply (the settings above apply only to a replay with today's memory)"
            className="rounded-lg border border-line px-3 py-1.5 text-sm font-medium hover:bg-subtle disabled:cursor-not-allowed disabled:opacity-50"
          >
            As stored
          </button>
          {Object.values(form).some(Boolean) ? (
            <button
              type="button"
              onClick={() => setForm(EMPTY_FORM)}
              className="rounded-md px-2 py-1.5 text-xs text-muted hover:bg-subtle hover:text-fg"
            >
              Reset settings
            </button>
          ) : null}
          {streaming ? <span className="text-xs text-muted">Available once the reply has finished.</span> : null}
        </div>
      </form>

      <div className="mt-3" aria-live="polite">
        {replay.isPending && !result ? <Skeleton lines={4} /> : null}
        {replay.isError ? (
          <Notice tone="danger" testId="replay-error">
            Could not replay: {replay.error.message}
          </Notice>
        ) : null}
        {result && !replay.isError ? (
          <>
            {stale ? (
              <div className="mb-2">
                <Notice tone="warn" testId="replay-stale">
                  Memory changed since this replay. Replay again to see it.
                </Notice>
              </div>
            ) : null}
            <ReplayDiff result={result} />
          </>
        ) : null}
      </div>
    </Section>
  );
}

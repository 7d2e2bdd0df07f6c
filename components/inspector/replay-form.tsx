'use client';

import { useId } from 'react';
import type { ReplayOptions } from '../api-types';

// The settings a replay may change, as its form holds them.

export type Form = {
  budget: string;
  window: string;
  factsTopK: string;
  episodesTopK: string;
  episodeScope: '' | 'conversation' | 'related' | 'user';
};

export const EMPTY_FORM: Form = { budget: '', window: '', factsTopK: '', episodesTopK: '', episodeScope: '' };

export function optionsOf(form: Form): ReplayOptions {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const options: ReplayOptions = { mode: 'today' };
  const budget = number(form.budget);
  const window = number(form.window);
  const factsTopK = number(form.factsTopK);
  const episodesTopK = number(form.episodesTopK);
  if (budget !== undefined) options.budget = budget;
  if (window !== undefined) options.window = window;
  if (factsTopK !== undefined) options.factsTopK = factsTopK;
  if (episodesTopK !== undefined) options.episodesTopK = episodesTopK;
  if (form.episodeScope) options.episodeScope = form.episodeScope;
  return options;
}

export function NumberInput(props: {
  label: string;
  unit?: string;
  testId: string;
  value: string;
  placeholder: string;
  min: number;
  max: number;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-[11px] font-medium text-muted">
        {props.label}
        {props.unit ? <span className="font-normal text-faint"> ({props.unit})</span> : null}
      </label>
      <input
        id={id}
        data-testid={props.testId}
        type="number"
        inputMode="numeric"
        step={1}
        min={props.min}
        max={props.max}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(event) => props.onChange(event.target.value)}
        className="mt-0.5 block w-full rounded-md border border-line bg-canvas px-2 py-1 text-sm tabular-nums placeholder:text-faint focus:border-accent focus:outline-none"
      />
    </div>
  );
}

export function ScopeSelect({ value, onChange }: { value: Form['episodeScope']; onChange: (value: Form['episodeScope']) => void }) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-[11px] font-medium text-muted">
        Episode scope
      </label>
      <select
        id={id}
        data-testid="replay-scope"
        value={value}
        onChange={(event) => onChange(event.target.value as Form['episodeScope'])}
        className="mt-0.5 block w-full rounded-md border border-line bg-canvas px-1.5 py-1 text-sm focus:border-accent focus:outline-none"
      >
        <option value="">as configured</option>
        <option value="conversation">this conversation</option>
        <option value="related">this conversation, then related turns of others</option>
        <option value="user">all conversations</option>
      </select>
    </div>
  );
}

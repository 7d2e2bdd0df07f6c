import { FACT_KINDS as KINDS } from '@/lib/shared/fact-kinds';
import type { FactKind } from '../api-types';

/** The kinds of fact (`slot`) POST /api/facts accepts, each with its label. */
export const FACT_KINDS = KINDS.map((kind) => [kind.slot, kind.label.en] as const) satisfies ReadonlyArray<readonly [FactKind, string]>;

const LABELS = new Map<string, string>(FACT_KINDS);

/** A kind's label, as the Memory page names it (the slot itself for one no longer listed). */
export const kindLabel = (slot: string): string => LABELS.get(slot) ?? slot;

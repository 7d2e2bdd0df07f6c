import { FACT_KINDS as KINDS } from '@/lib/shared/fact-kinds';
import type { FactKind } from '../api-types';

/** The kinds of fact (`slot`) POST /api/facts accepts, each with its label. */
export const FACT_KINDS = KINDS.map((kind) => [kind.slot, kind.label.en] as const) satisfies ReadonlyArray<readonly [FactKind, string]>;

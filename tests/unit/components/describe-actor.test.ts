import { describe, expect, it } from 'vitest';
import { describeActor, describeActorWithReason } from '@/components/describe-actor';

const owner = '0f309cf6-1111-4222-8333-444455556666';
const staff = '88be038f-aaaa-4bbb-8ccc-ddddeeeeffff';

describe('who did it, in the reader’s words', () => {
  it('the owner reads you, staff and memlens', () => {
    expect(describeActor(`user:${owner}`)).toBe('you');
    expect(describeActor(`staff:${staff}`)).toBe('staff');
    expect(describeActor('model:gpt-4o-mini')).toBe('memlens');
    expect(describeActor('offline-rules')).toBe('memlens');
    expect(describeActor('system')).toBe('memlens');
    expect(describeActorWithReason(`staff:${staff}`, '用户来信要求更正')).toBe('staff (“用户来信要求更正”)');
    expect(describeActorWithReason(`user:${owner}`, null)).toBe('you');
  });

  it('staff read the user, another staff member by id, and the model by name', () => {
    const viewer = { audience: 'staff' as const, ownerId: owner };
    expect(describeActor(`user:${owner}`, viewer)).toBe('the user');
    expect(describeActor(`staff:${staff}`, viewer)).toBe('staff 88be038f');
    expect(describeActor(`user:${staff}`, viewer)).toBe('staff 88be038f');
    expect(describeActor('model:gpt-4o-mini', viewer)).toBe('model gpt-4o-mini');
  });
});

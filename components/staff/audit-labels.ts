// How the audit log names its objects and actions.

export const OBJECT_TYPES: Array<[string, string]> = [
  ['fact', 'Fact'],
  ['summary', 'Summary'],
  ['message', 'Message'],
  ['episode', 'Episode (remembered exchange)'],
  ['memory', 'All memory (forget everything)'],
  ['conversation', 'Conversation'],
  ['turn_record', 'Turn record'],
  ['turn_replay', 'Turn replay'],
  ['user', 'User account'],
  ['user_search', 'User search'],
  ['jobs', 'A user’s job list'],
  ['job', 'Job'],
];

export const ACTIONS: Array<[string, string]> = [
  ['changes', 'any change (leaves out staff reads)'],
  ['read', 'read (staff looked at it)'],
  ['add', 'add'],
  ['edit', 'edit'],
  ['delete', 'delete'],
  ['clear', 'clear'],
  ['forget', 'forget'],
  ['end', 'end (a fact stopped being current)'],
  ['restore', 'restore (a fact is current again)'],
  ['retry', 'retry (a job)'],
  ['grant_staff', 'grant staff (a role change)'],
  ['revoke_staff', 'revoke staff (a role change)'],
];

export const ACTION_TONE: Record<string, 'neutral' | 'accent' | 'warn' | 'danger' | 'good'> = {
  read: 'neutral',
  add: 'good',
  edit: 'accent',
  delete: 'danger',
  clear: 'danger',
  forget: 'danger',
  end: 'warn',
  restore: 'good',
  retry: 'accent',
};

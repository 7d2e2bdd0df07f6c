import fc from 'fast-check';

/**
 * Bad request bodies for a route, described by what was done to a valid one (so a failing case
 * prints as a short description, not as megabytes of text), and turned into the body sent.
 */
type Path = Array<string | number>;

export type Field =
  | { path: Path; kind: 'text'; max: number; nonEmpty?: boolean; required?: boolean }
  | { path: Path; kind: 'enum'; values: readonly string[]; required?: boolean }
  | { path: Path; kind: 'int'; min: number; max?: number; required?: boolean }
  | { path: Path; kind: 'uuid' | 'date' | 'metadata' | 'object' | 'array'; required?: boolean };

/** A route's body: a valid one, its fields, the objects in it that take no other fields, and whether an empty body is valid. */
export type BodyShape = { valid: Record<string, unknown>; fields: Field[]; objects: Path[]; emptyIsValid: boolean };

export type Mutation =
  | { kind: 'not-json'; text: string }
  | { kind: 'empty'; text: string }
  | { kind: 'not-an-object'; value: unknown }
  | { kind: 'unknown-field'; at: Path; key: string; value: unknown }
  | { kind: 'wrong-value'; field: Path; value: unknown }
  | { kind: 'missing'; field: Path }
  | { kind: 'nul' | 'lone-surrogate'; field: Path; at: number; inKey: boolean }
  | { kind: 'huge'; field: Path; length: number }
  | { kind: 'deep'; field: Path; depth: number }
  | { kind: 'huge-body'; length: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;
const BAD_DATES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:30:00+01:00',
  '2024-13-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-05-01T12:00:00',
  '2024-05-01',
  'yesterday',
  '+275760-09-13T00:00:00Z',
  '',
];
const STRING_KINDS = new Set(['text', 'uuid', 'enum', 'date', 'metadata']);

const notJson = (text: string) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return text.trim() !== '';
  }
};

const nonString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);
const nonNumber = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({}),
);
const nonObject = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 8 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
);

/** A value of the wrong type, or of the right type but out of bounds, for a field. */
function wrongValue(field: Field): fc.Arbitrary<unknown> {
  switch (field.kind) {
    case 'text':
      return field.nonEmpty ? fc.oneof(nonString, fc.constant('')) : nonString;
    case 'enum':
      return fc.oneof(
        nonString,
        fc.string({ maxLength: 20 }).filter((value) => !field.values.includes(value)),
      );
    case 'uuid':
      return fc.oneof(
        nonString,
        fc.string({ maxLength: 40 }).filter((value) => !UUID.test(value)),
      );
    case 'int': {
      const outOfRange = [fc.integer({ max: field.min - 1 }), fc.constant(-1e300)];
      if (field.max !== undefined) outOfRange.push(fc.integer({ min: field.max + 1 }), fc.constant(1e300));
      return fc.oneof(
        nonNumber,
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
        ...outOfRange,
      );
    }
    case 'date':
      return fc.oneof(
        nonString,
        fc.constantFrom(...BAD_DATES),
        fc.string({ maxLength: 30 }).filter((value) => !/^\d{4}-/u.test(value)),
      );
    case 'metadata':
    case 'object':
      return nonObject;
    case 'array':
      return fc.oneof(
        nonObject.filter((value) => !Array.isArray(value)),
        fc.constant([]),
      );
  }
}

export type MutationKind = Mutation['kind'];

/** Every kind of bad body that applies to a route, each a generator of requests the route must refuse. */
export function badBodies(shape: BodyShape): Partial<Record<MutationKind, fc.Arbitrary<Mutation>>> {
  const { fields, objects } = shape;
  const stringFields = fields.filter((f) => STRING_KINDS.has(f.kind));
  const sized = fields.filter((f): f is Field & { kind: 'text' | 'metadata' } => f.kind === 'text' || f.kind === 'metadata');
  const required = fields.filter((f) => f.required);
  const known = (at: Path) =>
    fields.filter((f) => f.path.length === at.length + 1 && at.every((part, i) => f.path[i] === part)).map((f) => String(f.path.at(-1)));
  const pick = <T>(items: T[]) => fc.constantFrom(...items);
  const validText = JSON.stringify(shape.valid);
  const badCharacter = (kind: 'nul' | 'lone-surrogate') =>
    fc
      .tuple(pick(stringFields), fc.nat(), fc.boolean())
      .map(([field, at, inKey]): Mutation => ({ kind, field: field.path, at, inKey: inKey && field.kind === 'metadata' }));

  return {
    'not-json': fc
      .oneof(
        fc.string(),
        fc.constantFrom('{', '{"a":', "{'a': 1}", '[1,]', 'undefined', 'NaN', '{"a":1}}'),
        fc.nat().map((n) => validText.slice(0, n % validText.length)),
      )
      .filter(notJson)
      .map((text) => ({ kind: 'not-json', text })),
    ...(shape.emptyIsValid ? {} : { empty: fc.constantFrom('', ' ', '\n\t ').map((text): Mutation => ({ kind: 'empty', text })) }),
    'not-an-object': fc
      .oneof(
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.string({ maxLength: 10 }),
        fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
      )
      .map((value) => ({ kind: 'not-an-object', value })),
    'unknown-field': fc
      .tuple(
        pick(objects),
        fc.oneof(
          fc.constantFrom('isAdmin', 'userId', 'role', '__proto__', 'constructor', 'toString', 'id', 'trigger'),
          fc.string({ minLength: 1, maxLength: 10 }),
        ),
        fc.jsonValue({ maxDepth: 2 }),
      )
      .filter(([at, key]) => !known(at).includes(key))
      .map(([at, key, value]) => ({ kind: 'unknown-field', at, key, value })),
    'huge-body': fc.integer({ min: 1_100_000, max: 1_300_000 }).map((length) => ({ kind: 'huge-body', length })),
    ...(fields.length === 0
      ? {}
      : {
          'wrong-value': pick(fields).chain((field) =>
            wrongValue(field).map((value): Mutation => ({ kind: 'wrong-value', field: field.path, value })),
          ),
          deep: fc.tuple(pick(fields), fc.integer({ min: 2, max: 3000 })).map(
            ([field, depth]): Mutation => ({
              kind: 'deep',
              field: field.path,
              depth: field.kind === 'metadata' ? Math.max(depth, 9) : depth,
            }),
          ),
        }),
    ...(stringFields.length === 0 ? {} : { nul: badCharacter('nul'), 'lone-surrogate': badCharacter('lone-surrogate') }),
    ...(sized.length === 0
      ? {}
      : {
          huge: pick(sized).chain((field) => {
            const max = field.kind === 'text' ? field.max : 16_384;
            return fc.integer({ min: max + 1, max: max + 2000 }).map((length): Mutation => ({ kind: 'huge', field: field.path, length }));
          }),
        }),
    ...(required.length === 0 ? {} : { missing: pick(required).map((field): Mutation => ({ kind: 'missing', field: field.path })) }),
  };
}

/** The body a mutation stands for. */
export function bodyOf(shape: BodyShape, mutation: Mutation): string {
  switch (mutation.kind) {
    case 'not-json':
    case 'empty':
      return mutation.text;
    case 'not-an-object':
      return JSON.stringify(mutation.value);
    case 'huge-body':
      return JSON.stringify({ ...shape.valid, padding: 'x'.repeat(mutation.length) });
  }
  const body = structuredClone(shape.valid);
  switch (mutation.kind) {
    case 'unknown-field':
      // defineProperty: `__proto__` must become a field, not the prototype.
      Object.defineProperty(objectAt(body, mutation.at), mutation.key, {
        value: mutation.value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      break;
    case 'wrong-value':
      setAt(body, mutation.field, mutation.value);
      break;
    case 'missing':
      delete objectAt(body, mutation.field.slice(0, -1))[String(mutation.field.at(-1))];
      break;
    case 'nul':
    case 'lone-surrogate':
      setAt(body, mutation.field, withBadCharacter(valueAt(body, mutation.field), mutation));
      break;
    case 'huge':
      setAt(
        body,
        mutation.field,
        typeof valueAt(body, mutation.field) === 'object' ? { note: 'x'.repeat(mutation.length) } : 'x'.repeat(mutation.length),
      );
      break;
    case 'deep':
      setAt(
        body,
        mutation.field,
        Array.from({ length: mutation.depth }).reduce<unknown>((inner) => ({ a: inner }), 'deep'),
      );
      break;
  }
  return JSON.stringify(body);
}

function withBadCharacter(current: unknown, mutation: Extract<Mutation, { kind: 'nul' | 'lone-surrogate' }>): unknown {
  const bad = mutation.kind === 'nul' ? '\u0000' : '\uD800';
  const insert = (text: string) => text.slice(0, mutation.at % (text.length + 1)) + bad + text.slice(mutation.at % (text.length + 1));
  if (current && typeof current === 'object')
    return mutation.inKey ? { ...current, [insert('key')]: 1 } : { ...current, note: insert('note') };
  return insert(typeof current === 'string' ? current : 'x');
}

function objectAt(body: Record<string, unknown>, path: Path): Record<string, unknown> {
  return path.reduce<Record<string | number, unknown>>((node, key) => node[key] as Record<string | number, unknown>, body);
}

function valueAt(body: Record<string, unknown>, path: Path): unknown {
  return objectAt(body, path.slice(0, -1))[String(path.at(-1))];
}

function setAt(body: Record<string, unknown>, path: Path, value: unknown): void {
  objectAt(body, path.slice(0, -1))[String(path.at(-1))] = value;
}

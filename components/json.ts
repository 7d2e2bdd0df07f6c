/**
 * A server type as the browser receives it over JSON: every `Date` arrives as its ISO string.
 * Lets the client name the server's own types (`import type`, erased at build) instead of copying them.
 */
export type Json<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer Item>
    ? Json<Item>[]
    : T extends object
      ? { [Key in keyof T]: Json<T[Key]> }
      : T;

/** What an async server function resolves to, as JSON. */
export type JsonResult<Fn extends (...args: never[]) => Promise<unknown>> = Json<Awaited<ReturnType<Fn>>>;

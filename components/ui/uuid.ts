import { z } from 'zod';

const uuid = z.uuid();

/** Whether `value` is a UUID, as the API's routes check ids (`uuidParam`, lib/http.ts). */
export const isUuid = (value: string): boolean => uuid.safeParse(value).success;

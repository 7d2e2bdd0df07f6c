import { z } from 'zod';

const uuid = z.uuid();

/** Whether `value` is a UUID (an id of ours): routes (`uuidParam`), pages and the console check ids with it before any query. */
export const isUuid = (value: string): boolean => uuid.safeParse(value).success;
